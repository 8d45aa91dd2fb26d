import { describe, expect, test } from 'vitest'
import { openConsolePage } from '../support/browser.ts'
import { startPlainBackend } from './backend.ts'
import { useChromiumAnd } from './chromium-and-backend.ts'
import { startFetchApp } from './fetch-app.ts'
import { overlayText } from './overlay-scenario.ts'

/**
 * A failed WebSocket to the page's own dev server in the overlay, behind the Fetch handler (on
 * @hono/node-server, which refuses an upgrade nobody takes at once): counted as a call to this
 * dev server, not to another origin, and fixed with a route to the backend (never to the dev
 * server itself) that this front end can carry.
 */
describe('the overlay and a WebSocket to the dev server itself', () => {
  const env = useChromiumAnd(startPlainBackend)

  test('counts it apart from the call to another origin, and suggests a route to the backend', async () => {
    const app = await startFetchApp({ '/api': env.backend.url })
    const opened = await openConsolePage(env.browser, `${app.origin}/`)
    try {
      const { page } = opened
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
      )
      await page.evaluate(async (api) => {
        await new Promise<void>((resolve) => {
          const socket = new WebSocket(`ws://${location.host}/live/echo`)
          socket.onerror = () => resolve()
        })
        await fetch(`${api}/items`).catch(() => undefined)
      }, env.backend.url)
      await page.waitForFunction(
        () =>
          (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ??
            0) >= 2,
        undefined,
        { timeout: 10_000 },
      )
      const title = await page.evaluate(
        () =>
          document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelector('.title')?.textContent,
      )
      expect(title).toBe('cors-dev-proxy: 2 calls failed: 1 to another origin, 1 to this dev server')
      // The WebSocket's card, opened.
      await page.evaluate(() => {
        const cards = document
          .querySelector('cors-dev-proxy-overlay')
          ?.shadowRoot?.querySelectorAll('details')
        for (const card of cards ?? []) card.open = true
      })
      const text = (await overlayText(page)) ?? ''
      const ws = env.backend.url.replace('http:', 'ws:')
      expect(text).toContain(`'/live': { target: '${ws}', ws: true, pathRewrite: false }`)
      expect(text).toContain("new WebSocket('/live/echo')")
      expect(text).toContain("handed to the handler's `webSocket(request)`")
      expect(text).not.toContain(`'${app.origin.replace('http:', 'ws:')}'`)
    } finally {
      await opened.close()
      await app.close()
    }
  }, 60_000)
})
