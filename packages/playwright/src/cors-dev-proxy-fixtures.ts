import { dirname } from 'node:path'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import type {
  BrowserContext,
  Fixtures,
  PlaywrightTestArgs,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  PlaywrightWorkerOptions,
  TestInfo,
} from '@playwright/test'
import {
  type CorsDevProxyFixturesOptions,
  type CorsDevProxyTestOptions,
  checkTestOptions,
  splitFixturesOptions,
} from './fixture-options.js'
import { projectConfig } from './project-config.js'
import { replayConfig } from './replay-config.js'
import { type CorsDevProxyReplay, type ReplaySession, startReplaySession } from './replay-session.js'
import { unmatchedCallsError } from './unmatched-calls.js'

/*
 * The package: Playwright fixtures that answer a test's calls to the project's routes from the
 * recordings and mocks of cors-dev-proxy, with no dev server and no backend running. Over
 * Playwright's `context` fixture (so only tests that open a page pay for it), each test's context
 * gets one Fetch handler of the core built from the routes (`replay: 'only'` forced on, or
 * `record: 'missing'`; replay-config.ts), so each test replays its session from the start, and
 * `context.route` answers from it every call to a route's prefix on any origin or to its target
 * (map-call.ts, answer-call.ts, replay-session.ts). The configuration file is read by the
 * CLI's loader (project-config.ts). A call no recording matches gets the core's 404 and fails the
 * test when it ends, listing every such call with the core's explanation (unmatched-calls.ts).
 */

/** The test fixtures `corsDevProxyFixtures` adds. */
export interface CorsDevProxyTestFixtures {
  /** Per-test options (an option fixture): `test.use({ corsDevProxy: { mode: 'missing' } })`. */
  corsDevProxy: CorsDevProxyTestOptions
  /** The replay of the test's context: the calls it answered, and those no recording matched. */
  corsDevProxyReplay: CorsDevProxyReplay
}

/** What `test.extend` takes from `corsDevProxyFixtures`, on Playwright's own test and worker fixtures. */
export type CorsDevProxyFixtures = Fixtures<
  CorsDevProxyTestFixtures,
  // biome-ignore lint/complexity/noBannedTypes: Playwright's own spelling of "no worker fixtures".
  {},
  PlaywrightTestArgs & PlaywrightTestOptions,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions
>

/** The project's folder: `root`, else the folder of Playwright's configuration file, else the working directory. */
function rootOf(root: string | undefined, testInfo: TestInfo): string {
  if (root !== undefined) return root
  const { configFile } = testInfo.config
  return configFile === undefined ? process.cwd() : dirname(configFile)
}

/**
 * Playwright fixtures that answer every call a test's pages make to the routes (their prefix on
 * any origin, or their target) from the recordings and mocks, through the core's own engine:
 * no dev server, no backend. Give it the routes and options of `cors-dev-proxy.config.*` (or
 * `configFile: true` to read that file as the CLI does); a mistake in them throws here. A call
 * no recording matches gets the core's 404, and the test fails when it ends with every such
 * call listed and what differs from the closest recording.
 *
 * @example
 * // tests/fixtures.ts
 * import { test as base, expect } from '@playwright/test'
 * import { type CorsDevProxyTestFixtures, corsDevProxyFixtures } from '@cors-dev-proxy/playwright'
 *
 * // The type argument, as Playwright asks of every `extend`: it cannot infer fixtures' names.
 * export const test = base.extend<CorsDevProxyTestFixtures>(
 *   corsDevProxyFixtures({ routes: { '/api': { target: 'http://localhost:3000' } }, recordings: { dir: 'recordings' } }),
 * )
 * export { expect }
 */
export function corsDevProxyFixtures(options: CorsDevProxyFixturesOptions = {}): CorsDevProxyFixtures {
  checkTestOptions(options, 'corsDevProxyFixtures')
  const [own, inline] = splitFixturesOptions(options)
  // Without a file, every mistake in the routes and options shows when the test file loads.
  if (own.configFile === undefined || own.configFile === false) {
    const checked = replayConfig({ ...inline, routes: inline.routes ?? {} }, own.mode ?? 'replay')
    if (Object.keys(checked.routes).length > 0) resolveOptions(checked)
  }
  // Each context's replay, for the `corsDevProxyReplay` fixture of the same test.
  const sessions = new WeakMap<BrowserContext, ReplaySession>()
  return {
    corsDevProxy: [{}, { option: true }],
    // Over Playwright's own `context`, so a test that opens no page (an API test) starts nothing.
    async context({ context, corsDevProxy }, use, testInfo) {
      checkTestOptions(corsDevProxy, 'test.use({ corsDevProxy })')
      const mode = corsDevProxy.mode ?? own.mode ?? 'replay'
      const failOnUnmatched = corsDevProxy.failOnUnmatched ?? own.failOnUnmatched ?? true
      const root = rootOf(own.root, testInfo)
      const config = await projectConfig(inline, own.configFile, root)
      const session = await startReplaySession(context, config, { mode, root })
      sessions.set(context, session)
      try {
        await use(context)
      } finally {
        await session.stop()
      }
      if (failOnUnmatched && session.unmatched.length > 0) throw unmatchedCallsError(session.unmatched, mode)
    },
    async corsDevProxyReplay({ context }, use) {
      await use(sessions.get(context) as ReplaySession)
    },
  }
}
