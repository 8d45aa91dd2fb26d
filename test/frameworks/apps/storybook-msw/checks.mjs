// The MSW app's own check, run after the shared ones of lib/checks.mjs: the handlers that
// `cors-dev-proxy export-msw` wrote at the start (start.mjs) from recordings/ answer the story's
// request in Chromium through msw-storybook-addon, with values the suite's backend never gives;
// a request with no recording is left to MSW (its unhandled-request warning) and reaches the
// backend through the proxy. The worker, once registered, stands in front of every request of
// its origin in its browser context: the story is opened in a context of its own, and the
// shared checks' page is checked to have none.

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** The recorded answer to GET /api/items (recordings/api/), as the story renders it. */
const RECORDED = ['7001 Recorded Rosemary', '7002 Recorded Thyme']
/** The same path with a query no recording has. */
const UNRECORDED = '/api/items?unrecorded=1'

/** @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>} */
export const CHECKS = [
  {
    name: "the MSW story renders the recorded items from export-msw's handlers; an unrecorded request passes them by",
    async run({ page, origin }) {
      const workers = await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistrations()).length,
      )
      expect(workers === 0, `the shared checks' page had ${workers} service worker(s) in front of it`)
      const context = await page.context().browser().newContext()
      try {
        const story = await context.newPage()
        const consoleLines = []
        story.on('console', (message) => consoleLines.push(message.text()))
        story.on('pageerror', (error) => consoleLines.push(String(error)))
        const url = `${origin}/iframe.html?id=recorded--list&viewMode=story`
        const res = await story.goto(url, { waitUntil: 'load', timeout: 120_000 })
        expect(res?.status() === 200, `the story's iframe answered ${res?.status()}`)
        // Loaded or failed; Storybook's error display, if the story broke, is shown as it is.
        const settled = () =>
          ['loaded', 'failed'].includes(document.querySelector('#items')?.dataset.state ?? '') ||
          document.body.classList.contains('sb-show-errordisplay')
        await story.waitForFunction(settled, null, { timeout: 60_000 }).catch((error) => {
          throw new Error(`${error.message}; its console: ${consoleLines.slice(-8).join(' | ')}`)
        })
        const shown = await story.evaluate(
          () =>
            (document.querySelector('#items') ?? document.querySelector('#error-message'))?.textContent ?? '',
        )
        expect(
          RECORDED.every((line) => shown.includes(line)),
          `the story shows ${JSON.stringify(shown.slice(0, 300))}, not ${RECORDED.join(', ')}; its console: ${consoleLines.slice(-8).join(' | ')}`,
        )
        const controlled = await story.evaluate(() => navigator.serviceWorker.controller?.scriptURL)
        expect(
          controlled?.endsWith('/mockServiceWorker.js'),
          `the story's page is controlled by ${controlled}`,
        )
        // The negative control: no recording, so no answer from the handlers; the backend's echo.
        const other = await story.evaluate(async (path) => {
          const response = await fetch(path)
          return { status: response.status, text: await response.text() }
        }, UNRECORDED)
        expect(
          other.status === 200 && !RECORDED.some((line) => other.text.includes(line.split(' ')[1])),
          `${UNRECORDED} answered ${other.status} ${other.text.slice(0, 200)}`,
        )
        const echoed = JSON.parse(other.text)
        expect(
          echoed.path === '/items' && echoed.query?.unrecorded === '1',
          `${UNRECORDED} did not reach the backend: ${other.text.slice(0, 200)}`,
        )
        const unhandled = consoleLines.filter((line) => line.includes('without a matching request handler'))
        expect(
          unhandled.some((line) => line.includes(UNRECORDED)),
          `MSW did not warn about ${UNRECORDED}: ${JSON.stringify(unhandled)}`,
        )
        expect(
          !unhandled.some((line) => /GET \S*\/api\/items\s/.test(line)),
          `MSW found no handler for the recorded /api/items: ${JSON.stringify(unhandled)}`,
        )
      } finally {
        await context.close()
      }
    },
  },
]
