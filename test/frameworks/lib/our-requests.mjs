// What the page's Network panel and console would show of our own endpoints (`/__cors-dev-proxy/`:
// the overlay's client, the inspector, the control board), watched on the browser context for
// the whole of an app's run, across every page the checks open: a request that failed, an answer
// of 400 or more, a console error naming one. A tool that explains failed requests must leave
// none of its own. The check closing each app's list reads what was seen; another opens the
// inspector's page, so its own requests are watched too.

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Whether `url` is one of our endpoints. */
function isOurs(url) {
  try {
    return new URL(url).pathname.startsWith('/__cors-dev-proxy/')
  } catch {
    return false
  }
}

/**
 * Starts watching `context`; returns the list it fills, one line per thing seen (a repeat counted).
 * A request cancelled because its page closed or navigated (`net::ERR_ABORTED`) is not a failure.
 * @param {import('playwright-core').BrowserContext} context
 * @returns {Map<string, number>}
 * @example
 * const ours = watchOurRequests(context) // later: [...ours.keys()]
 */
export function watchOurRequests(context) {
  const seen = new Map()
  const note = (line) => seen.set(line, (seen.get(line) ?? 0) + 1)
  const pathOf = (url) => new URL(url).pathname
  context.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed'
    if (isOurs(request.url()) && reason !== 'net::ERR_ABORTED')
      note(`${request.method()} ${pathOf(request.url())} failed: ${reason}`)
  })
  context.on('response', (response) => {
    if (isOurs(response.url()) && response.status() >= 400)
      note(`${response.request().method()} ${pathOf(response.url())} answered ${response.status()}`)
  })
  context.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('/__cors-dev-proxy/'))
      note(`console error: ${message.text().slice(0, 200)}`)
  })
  return seen
}

/**
 * The check that closes every app's list, after all the others: nothing of ours failed.
 * @type {{ name: string, run(ctx: { ours: Map<string, number> }): Promise<void> }}
 */
export const NO_FAILED_REQUEST_OF_OURS = {
  name: 'no failed request to /__cors-dev-proxy/ in the pages, their console or network log, all run long',
  async run({ ours }) {
    if (ours.size === 0) return
    const lines = [...ours].map(([line, count]) => (count > 1 ? `${line} (${count} times)` : line))
    throw new Error(lines.join('; '))
  },
}

/**
 * Opens the inspector's page, `/__cors-dev-proxy/`, in a page of its own, as a user does from the
 * overlay: it shows the calls made so far, and what it asks our endpoints for on the way is
 * watched with the rest.
 * @type {{ name: string, run(ctx: any): Promise<void | string> }}
 */
export const INSPECTOR_PAGE = {
  name: "the inspector's page opens and lists the page's calls",
  async run({ page, origin, app }) {
    if (app.overlay === false) return 'not applicable: no overlay client or inspector'
    const inspector = await page.context().newPage()
    try {
      const res = await inspector.goto(`${origin}/__cors-dev-proxy/`, { waitUntil: 'load', timeout: 30_000 })
      expect(res?.status() === 200, `/__cors-dev-proxy/ answered ${res?.status()}`)
      // The overlay check's call, listed once the page has read the exchanges.
      await inspector.waitForFunction(
        () => document.body?.textContent?.includes('from=inspector-check'),
        null,
        { timeout: 15_000 },
      )
      // Its other first requests (explanations, mocks) are made together with that one.
      await inspector.waitForTimeout(500)
    } finally {
      await inspector.close()
    }
  },
}
