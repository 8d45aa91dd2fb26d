import type { CorsDevProxyConfig, FetchHandler } from '@cors-dev-proxy/core'
import { createFetchHandlerFor } from '@cors-dev-proxy/core/adapter'
import type { BrowserContext, Route } from '@playwright/test'
import { answerCall } from './answer-call.js'
import { createCallMapper } from './map-call.js'
import { type ReplayMode, replayConfig } from './replay-config.js'
import type { UnmatchedCall } from './unmatched-calls.js'

/** A call the replay answered. */
export interface ReplayedCall {
  readonly method: string
  /** The URL the page called. */
  readonly url: string
  readonly status: number
  /** No recording matched it (see `unmatched`). */
  readonly unmatched: boolean
}

/** A test's replay, as the `corsDevProxyReplay` fixture gives it. */
export interface CorsDevProxyReplay {
  /** How calls are answered in this test. */
  readonly mode: ReplayMode
  /** The calls answered so far, in the order their answers came. */
  readonly calls: readonly ReplayedCall[]
  /** The calls so far that no recording matched, with the core's explanation. */
  readonly unmatched: readonly UnmatchedCall[]
  /** The core's Fetch handler answering them, for a call made from the test itself (`await handler(new Request(...))`). */
  readonly handler: FetchHandler
}

/** A replay running on a browser context, and how to stop it. */
export interface ReplaySession extends CorsDevProxyReplay {
  /** Stops intercepting, then closes the handler (recordings written under `'missing'` are on disk once it resolves). */
  stop(): Promise<void>
}

/** Where a session's configuration comes from and how it runs. */
export interface ReplaySessionOptions {
  readonly mode: ReplayMode
  /** Where a relative `recordings.dir` and mock folders go. */
  readonly root: string
}

/**
 * Starts answering the context's calls to the routes (their prefixes on any origin, and their
 * targets) from one Fetch handler of the core, built from `config` under `mode`: every page of
 * the context, from the next request on. A configuration mistake throws here.
 *
 * @example
 * const session = await startReplaySession(context, { routes: { '/api': 'http://localhost:3000' } }, { mode: 'replay', root: process.cwd() })
 * // ... the test ...
 * await session.stop()
 */
export async function startReplaySession(
  context: BrowserContext,
  config: CorsDevProxyConfig,
  options: ReplaySessionOptions,
): Promise<ReplaySession> {
  const handler = createFetchHandlerFor(replayConfig(config, options.mode), undefined, { root: options.root })
  const map = createCallMapper(handler.routes)
  const calls: ReplayedCall[] = []
  const unmatched: UnmatchedCall[] = []

  async function replayCall(route: Route): Promise<void> {
    const request = route.request()
    const path = map(new URL(request.url()))
    if (path === undefined) return route.fallback()
    const outcome = await answerCall(route, handler, path).catch((error: unknown) => {
      // A call the engine could not even be asked about (the page went away mid-call).
      if (!context.pages().some((page) => !page.isClosed())) return undefined
      throw error
    })
    if (outcome === undefined || outcome.kind === 'passed') return
    const call = { method: request.method(), url: request.url() }
    if (outcome.kind === 'answered') calls.push({ ...call, status: outcome.status, unmatched: false })
    else {
      unmatched.push(outcome.call)
      calls.push({ ...call, status: outcome.call.status, unmatched: true })
    }
  }

  const matches = (url: URL): boolean => map(url) !== undefined
  await context.route(matches, replayCall)
  return {
    mode: options.mode,
    calls,
    unmatched,
    handler,
    async stop() {
      await context.unroute(matches, replayCall).catch(() => undefined)
      await handler.close()
    },
  }
}
