import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { openConsolePage } from '../support/browser.ts'
import { useChromiumAnd } from './chromium-and-backend.ts'
import { overlayText } from './overlay-scenario.ts'

/** One request as the backend saw it, and whether Chromium sent it (it marks fetches with Sec-Fetch-Mode). */
interface Seen {
  readonly line: string
  readonly byBrowser: boolean
}

/**
 * A backend on another port that counts every request: preflights pass (the page's origin,
 * DELETE allowed), every other answer lacks Access-Control-Allow-Origin, so both calls fail.
 */
async function startCountingBackend() {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    seen.push({ line: `${req.method} ${req.url}`, byBrowser: req.headers['sec-fetch-mode'] !== undefined })
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': String(req.headers.origin),
        'access-control-allow-methods': 'DELETE',
      })
      res.end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('done')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('the overlay explains calls with side effects without repeating them', () => {
  const env = useChromiumAnd(startCountingBackend)

  test('a failed simple POST and a failed DELETE: the backend gets what Chromium sent, and only OPTIONS and HEAD besides', async () => {
    const app = await startVite({ routes: { '/other': { mock: true } } })
    const opened = await openConsolePage(env.browser, `${app.origin}/`)
    try {
      const { page } = opened
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
      )
      const failures = await page.evaluate(async (api) => {
        const outcome = (call: Promise<Response>) =>
          call.then(
            () => 'ok',
            (error: unknown) => String(error),
          )
        const post = await outcome(fetch(`${api}/items`, { method: 'POST', body: 'order one' }))
        const remove = await outcome(fetch(`${api}/items/1`, { method: 'DELETE' }))
        return [post, remove]
      }, env.backend.url)
      expect(failures).toEqual(['TypeError: Failed to fetch', 'TypeError: Failed to fetch'])
      // Both explained: each card has its probe line.
      await page.waitForFunction(
        () =>
          (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.probe').length ??
            0) >= 2,
        undefined,
        { timeout: 15_000, polling: 50 },
      )
      const text = (await overlayText(page)) ?? ''
      expect(text).toContain('probed with HEAD; the POST was not repeated; verdict inferred')
      expect(text).toContain('probed with OPTIONS and HEAD; the DELETE was not repeated; verdict inferred')
      // The verdicts are Chromium's own, word for word, though neither call was sent again.
      for (const path of ['/items', '/items/1']) {
        const line = await opened.waitForConsole(`Access to fetch at '${env.backend.url}${path}'`)
        expect(line).toContain(
          "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
        )
        expect(text).toContain(line)
      }

      const byBrowser = env.backend.seen.filter((seen) => seen.byBrowser).map((seen) => seen.line)
      const byProbe = env.backend.seen.filter((seen) => !seen.byBrowser).map((seen) => seen.line)
      expect(byBrowser).toEqual(['POST /items', 'OPTIONS /items/1', 'DELETE /items/1'])
      expect(byProbe.sort()).toEqual(['HEAD /items', 'HEAD /items/1', 'OPTIONS /items/1'])
      const count = (line: string) => env.backend.seen.filter((seen) => seen.line === line).length
      expect([count('POST /items'), count('DELETE /items/1')]).toEqual([1, 1])

      // The inspector lists both explanations with what was probed.
      const inspector = await opened.page.context().newPage()
      await inspector.goto(`${app.origin}/__cors-dev-proxy/`)
      const items = inspector.locator('#explanations li')
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(2)
      const listed = (await inspector.locator('#explained').textContent()) ?? ''
      expect(listed).toContain(`DELETE ${env.backend.url}/items/1`)
      expect(listed).toContain('the DELETE was not repeated; verdict inferred')
      expect(listed).toContain('the POST was not repeated; verdict inferred')
      expect(env.backend.seen).toHaveLength(6)
    } finally {
      await opened.close()
      await app.close()
    }
  }, 60_000)
})
