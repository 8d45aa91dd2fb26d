// Headless Chromium (Debian's, through playwright-core as test/support/browser.ts does) making 100
// parallel same-origin fetches through a dev server: over HTTP/1.1 the browser keeps about 6
// connections per origin, over HTTP/2 all 100 go out at once on one connection.
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium-launch.mjs'

/**
 * Launches Chromium; `open(url)` gives a page on that origin whose `burst` runs `count` parallel
 * fetches of `/api/items?delay=…` and returns how long they took together, the protocols the
 * browser used (`http/1.1`, `h2`) and how many failed.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  })
  return {
    version: browser.version(),
    /** @param {string} origin */
    async open(origin) {
      // A context per origin: its own connections, its certificate accepted (self-signed).
      const context = await browser.newContext({ ignoreHTTPSErrors: true })
      const page = await context.newPage()
      const response = await page.goto(`${origin}/api/items`)
      if (response?.status() !== 200) throw new Error(`${origin}/api/items answered ${response?.status()}`)
      return {
        /** @param {{ count: number, delayMs: number }} burst */
        burst: ({ count, delayMs }) => page.evaluate(runBurst, { count, delayMs }),
      }
    },
    close: () => browser.close(),
  }
}

/** Runs in the page. Each URL is new (`run`, `i`), so nothing comes from the HTTP cache. */
async function runBurst({ count, delayMs }) {
  const run = Math.random().toString(36).slice(2)
  performance.clearResourceTimings()
  const started = performance.now()
  const results = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      fetch(`/api/items?delay=${delayMs}&run=${run}&i=${i}`).then((r) => {
        if (!r.ok) throw new Error(`status ${r.status}`)
        return r.text()
      }),
    ),
  )
  const ms = performance.now() - started
  const protocols = [
    ...new Set(
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes(`run=${run}`))
        .map((entry) => entry.nextHopProtocol),
    ),
  ]
  return { ms, protocols, failed: results.filter((r) => r.status === 'rejected').length }
}
