// What the lab does inside a page: a burst of fetches timed by the browser itself (Resource
// Timing), and the warm-up that lets Chromium learn HTTP/3 from Alt-Svc before a run.

/**
 * Fetches every URL at once from `page` and reads each body; returns the burst's total time and,
 * per request, its start and end (ms from the burst's start) and Chromium's `nextHopProtocol`.
 * @param {import('playwright-core').Page} page
 * @param {string[]} urls
 * @param {number} timeoutMs
 */
export function burst(page, urls, timeoutMs) {
  return page.evaluate(
    async ({ urls, timeoutMs }) => {
      performance.clearResourceTimings()
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), timeoutMs)
      const started = performance.now()
      const settled = await Promise.allSettled(
        urls.map((url) =>
          fetch(url, { signal: controller.signal, cache: 'no-store' }).then((r) => r.arrayBuffer()),
        ),
      )
      clearTimeout(timer)
      const failed = settled.filter((outcome) => outcome.status === 'rejected')
      if (failed.length > 0) {
        const reason = failed[0].reason
        return {
          error: `${failed.length} of ${urls.length} requests failed: ${reason?.message ?? reason}`,
          totalMs: performance.now() - started,
          requests: [],
        }
      }
      const totalMs = performance.now() - started
      const byName = new Map(performance.getEntriesByType('resource').map((entry) => [entry.name, entry]))
      const requests = urls.map((url) => {
        const entry = byName.get(new URL(url, location.href).href)
        return entry === undefined
          ? { start: 0, end: totalMs, protocol: '' }
          : {
              start: entry.startTime - started,
              end: entry.responseEnd - started,
              protocol: entry.nextHopProtocol,
              // A new connection: its set-up is in this request's timing.
              connected: entry.connectEnd > entry.connectStart,
            }
      })
      return { totalMs, requests }
    },
    { urls, timeoutMs },
  )
}

/**
 * Opens `origin` in `context` and fetches a tiny asset until Chromium reports `protocol`
 * (at most `attempts` fetches, 20 ms apart): the first answer comes over TCP and announces h3 in
 * Alt-Svc; Chromium moves over on a later request. Returns the page and the protocols seen.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} origin
 * @param {string} protocol
 */
export async function warmUp(context, origin, protocol, attempts = 20) {
  const page = await context.newPage()
  await page.goto(`${origin}/api/asset?size=0&page=1`)
  const seen = await page.evaluate(
    async ({ protocol, attempts }) => {
      const seen = []
      for (let i = 0; i < attempts; i++) {
        const answer = await fetch(`/api/asset?size=1&warm=${i}`, { cache: 'no-store' })
        await answer.arrayBuffer()
        const entries = performance.getEntriesByType('resource')
        const last = entries[entries.length - 1]?.nextHopProtocol ?? ''
        seen.push(last)
        if (last === protocol) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return seen
    },
    { protocol, attempts },
  )
  return { page, seen }
}
