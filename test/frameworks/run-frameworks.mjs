// `pnpm test:frameworks`: the framework suite. Each app of test/frameworks/apps (Nuxt, SvelteKit,
// Astro, React Router, Vite middleware mode, Rsbuild, Rspack, Bun, Deno, Hono on Node, Storybook, one of its
// apps with MSW handlers from `cors-dev-proxy export-msw`) is installed into a temporary folder
// from the lockfile here and our packed tarballs, started on Node 24 as its users start it, and
// driven in headless Chromium through the checks of lib/checks.mjs, against the backend of
// lib/backend.mjs (compressing, with ETags, a login, a prefixed WebSocket, a 40 s answer): the
// background checks started first and awaited after the app's own, the closing ones last, with
// the browser context watched all along for failed requests to our endpoints. One result line
// per app; exit code 1 when any check failed. An app with `set` in its app.mjs runs on an older dependency
// set (sets/<set>/), installed into a folder of its own only when such an app runs; one with
// `base` runs the files of that app's folder with its own over them.
//
//   node test/frameworks/run-frameworks.mjs [app-folder ...]   (all apps when none is named)
//
// Needs `pnpm build` first and Node 24 in .tools/node24 (`pnpm test:frameworks` does both).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium-launch.mjs'
import { unclaimedPort } from '../support/unclaimed-port.mjs'
import { startBackend } from './lib/backend.mjs'
import { BACKGROUND_CHECKS, CHECKS, CLOSING_CHECKS } from './lib/checks.mjs'
import { reachableFrom } from './lib/dependency-tree.mjs'
import { composeApp, installApps, packPackages } from './lib/install.mjs'
import { watchOurRequests } from './lib/our-requests.mjs'
import { startApp, startUntil } from './lib/start-app.mjs'

const suite = dirname(fileURLToPath(import.meta.url))
const root = join(suite, '../..')
const node24 = join(root, '.tools/node24/node_modules/.bin')
const TAG = '[frameworks]'

if (!existsSync(join(node24, 'node'))) {
  console.error(
    `${TAG} Node 24 is missing from .tools/node24: run pnpm test:tools (pnpm test:frameworks does)`,
  )
  process.exit(1)
}

const named = process.argv.slice(2)
const appNames = readdirSync(join(suite, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(suite, 'apps', entry.name, 'app.mjs')))
  .map((entry) => entry.name)
  .filter((name) => named.length === 0 || named.includes(name))

const started = Date.now()
const folder = mkdtempSync(join(tmpdir(), 'cdp-frameworks-'))
const env = {
  ...process.env,
  PATH: `${node24}:${process.env.PATH}`,
  // The frameworks' own prompts and phone-home, off as in CI.
  CI: 'true',
  ASTRO_TELEMETRY_DISABLED: '1',
  NUXT_TELEMETRY_DISABLED: '1',
  NO_UPDATE_NOTIFIER: '1',
}

// Read from the sources before installing: an app's `set` decides which install it needs.
const apps = new Map()
for (const name of appNames)
  apps.set(name, (await import(pathToFileURL(join(suite, 'apps', name, 'app.mjs')).href)).default)
/** Dependency set ('' for the suite's own) → its install folder; each set installed once. */
const installs = new Map()
for (const app of apps.values()) {
  const set = app.set ?? ''
  if (!installs.has(set))
    installs.set(set, set === '' ? folder : mkdtempSync(join(tmpdir(), `cdp-frameworks-${set}-`)))
}

console.log(
  `${TAG} packing our packages and installing ${appNames.length} apps into ${[...installs.values()].join(', ')}`,
)
const tarballs = await packPackages(root, join(folder, 'tarballs'))
for (const [set, into] of installs)
  await installApps({ suite, folder: into, tarballs, env, set: set || undefined })
console.log(`${TAG} installed in ${Math.round((Date.now() - started) / 1000)} s`)

// Installing our adapters into an Rsbuild or Rspack project brings none of these with them.
const FOREIGN = ['webpack-dev-server', 'webpack', 'express']
const results = []
for (const name of installs.has('') ? ['@cors-dev-proxy/webpack', '@cors-dev-proxy/rsbuild'] : []) {
  const brought = FOREIGN.filter((foreign) => reachableFrom(folder, name).has(foreign))
  const summary =
    brought.length === 0
      ? `${TAG} ${name} brings no ${FOREIGN.join(', ')} into the project: ok`
      : `${TAG} ${name} brings ${brought.join(', ')} into the project: FAILED`
  console.log(summary)
  results.push({ name, failed: brought.length, summary })
}

const core = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href)
const backend = await startBackend(core)
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })

for (const name of appNames) {
  const app = apps.get(name)
  const installed = installs.get(app.set ?? '')
  const appDir = join(installed, 'apps', name)
  if (app.base) composeApp({ suite, appDir, name, base: app.base })
  const appStarted = Date.now()
  const lines = []
  let running
  let failed = 0
  let notApplicable = 0
  const context = await browser.newContext()
  // Failed requests to our endpoints, from every page the checks open, for the closing check.
  const ours = watchOurRequests(context)
  /** Runs one check into `lines`, counting what failed or did not apply. */
  const settle = async (check, outcome) => {
    try {
      const note = await outcome
      if (typeof note === 'string') {
        notApplicable++
        lines.push(`    - ${check.name}: ${note}`)
      } else lines.push(`    ✓ ${check.name}`)
    } catch (error) {
      failed++
      lines.push(`    ✗ ${check.name}: ${error instanceof Error ? error.message : error}`)
    }
  }
  try {
    const bin = join(installed, 'node_modules/.bin')
    const appEnv = (port) => ({
      ...env,
      PORT: String(port),
      CDP_BACKEND: backend.url,
      CDP_DOWN: backend.down,
    })
    const port = await unclaimedPort()
    running = await startApp({ app, cwd: appDir, bin, port, env: appEnv(port) })
    // A second start of the app beside the first, with more environment, for a start that must fail.
    const startAgain = async (extra, done) => {
      const again = await unclaimedPort()
      return startUntil({ app, cwd: appDir, bin, port: again, env: { ...appEnv(again), ...extra } }, done)
    }
    const page = await context.newPage()
    const ctx = { page, origin: running.origin, app, appDir, backend, running, startAgain, ours }
    // Started now, settled after the others: their waiting runs beside them. A rejection is held
    // in the promise until then.
    const background = BACKGROUND_CHECKS.map((check) => {
      const outcome = check.run(ctx)
      outcome.catch(() => {})
      return { check, outcome }
    })
    // The shared checks, then the app's own (`checks` of app.mjs), if any.
    for (const check of [...CHECKS, ...(app.checks ?? [])]) await settle(check, check.run(ctx))
    for (const { check, outcome } of background) await settle(check, outcome)
    for (const check of CLOSING_CHECKS) await settle(check, check.run(ctx))
  } catch (error) {
    failed++
    lines.push(`    ✗ start: ${error instanceof Error ? error.message : error}`)
  } finally {
    await context.close()
    if (failed > 0 && running)
      lines.push(`    last output of ${app.name}:\n${running.tail().replace(/^/gm, '      ')}`)
    await running?.stop()
  }
  const total = BACKGROUND_CHECKS.length + CHECKS.length + (app.checks?.length ?? 0) + CLOSING_CHECKS.length
  const passed = total - failed - notApplicable
  const seconds = Math.round((Date.now() - appStarted) / 1000)
  const summary =
    failed === 0
      ? `${TAG} ${app.name}: ok, ${passed} checks passed${notApplicable ? `, ${notApplicable} not applicable` : ''} (${seconds} s)`
      : `${TAG} ${app.name}: FAILED, ${failed} of ${total} checks (${seconds} s)`
  results.push({ name: app.name, failed, summary })
  console.log(lines.join('\n'))
  console.log(summary)
}

await browser.close()
await backend.close()
for (const into of installs.values()) rmSync(into, { recursive: true, force: true })
rmSync(folder, { recursive: true, force: true })
console.log(`\n${TAG} results (${Math.round((Date.now() - started) / 1000)} s):`)
console.log(
  `${TAG} the backend compressed ${Object.entries(backend.compressed)
    .map(([coding, count]) => `${count} answers with ${coding}`)
    .join(', ')}`,
)
for (const { summary } of results) console.log(summary)
process.exit(results.some((result) => result.failed > 0) || results.length === 0 ? 1 : 0)
