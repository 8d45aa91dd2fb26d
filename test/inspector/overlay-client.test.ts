import { createServer } from 'node:net'
import { checkCors } from '@cors-dev-proxy/core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { launchChromium, openConsolePage } from '../support/browser.ts'
import { startPlainBackend } from './backend.ts'
import { overlayText } from './overlay-scenario.ts'

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * The client in the page (one Vite dev server, one Chromium): what it observes and what it
 * leaves alone, and the inspector page as a user works it.
 */
describe('the overlay client and the inspector page in Chromium', () => {
  let browser: Browser
  let backend: Awaited<ReturnType<typeof startPlainBackend>>
  let vite: Awaited<ReturnType<typeof startVite>>

  beforeAll(async () => {
    ;[browser, backend] = await Promise.all([launchChromium(), startPlainBackend()])
    vite = await startVite({ routes: { '/api': backend.url } })
  }, 60_000)
  afterAll(async () => {
    await vite?.close()
    await browser?.close()
    await backend?.close()
  })

  test('XMLHttpRequest, EventSource and WebSocket failures are explained; repeats are counted; what the page sees is unchanged', async () => {
    const opened = await openConsolePage(browser, `${vite.origin}/`)
    try {
      const { page } = opened
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
      )
      const wsPort = await closedPort()
      const seen = await page.evaluate(
        async ({ api, wsPort }) => {
          const xhr = await new Promise<string>((resolve) => {
            const request = new XMLHttpRequest()
            request.open('PUT', `${api}/items`)
            request.setRequestHeader('content-type', 'application/json')
            request.onerror = () => resolve(`error ${request.status} ${request.readyState}`)
            request.onload = () => resolve('load')
            request.send('{}')
          })
          const stream = await new Promise<string>((resolve) => {
            const source = new EventSource(`${api}/items`)
            source.onerror = () => {
              resolve(`error ${source.readyState} ${source instanceof EventSource}`)
              source.close()
            }
          })
          const socket = await new Promise<string>((resolve) => {
            const ws = new WebSocket(`ws://127.0.0.1:${wsPort}/live`)
            ws.onerror = () =>
              resolve(`error ${ws.readyState} ${WebSocket.CLOSED} ${ws instanceof WebSocket}`)
          })
          const twice = await Promise.all(
            [1, 2, 3].map(() =>
              fetch(`${api}/items`).then(
                () => 'ok',
                (error: unknown) => String(error),
              ),
            ),
          )
          return { xhr, stream, socket, twice }
        },
        { api: backend.url, wsPort },
      )
      expect(seen).toEqual({
        xhr: 'error 0 4',
        stream: 'error 2 true',
        socket: 'error 3 3 true',
        twice: ['TypeError: Failed to fetch', 'TypeError: Failed to fetch', 'TypeError: Failed to fetch'],
      })
      await page.waitForFunction(
        () =>
          (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ??
            0) >= 4,
        undefined,
        { timeout: 5000 },
      )
      const text = (await overlayText(page)) ?? ''
      const xhrModel = await checkCors({
        url: `${backend.url}/items`,
        origin: vite.origin,
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        initiator: 'XMLHttpRequest',
      })
      expect(text).toContain(xhrModel.message)
      expect(text).toContain(`xhr.open('PUT', '/api/items')`)
      expect(text).toContain(`new EventSource('/api/items')`)
      expect(text).toContain('WebSockets are not subject to CORS')
      expect(text).toContain('×3')
      // Esc closes it.
      await page.keyboard.press('Escape')
      expect(await overlayText(page)).toBeNull()
    } finally {
      await opened.close()
    }
  }, 30_000)

  test('the inspector lists a call live, filters, shows the detail and replays it', async () => {
    const inspector = (await openConsolePage(browser, `${vite.origin}/__cors-dev-proxy/`)).page
    const app = await openConsolePage(browser, `${vite.origin}/`)
    try {
      await inspector.waitForFunction(() => document.querySelector('#live')?.textContent === '● live')
      await app.page.evaluate(() =>
        fetch('/api/items?live=1', {
          method: 'POST',
          headers: { authorization: 'Bearer hidden' },
          body: 'hello',
        }),
      )
      const row = inspector.locator('#rows tr', { hasText: '/api/items?live=1' })
      await row.waitFor()
      await inspector.fill('#text', 'no-such-call')
      await inspector.locator('#rows tr').first().waitFor({ state: 'detached' })
      await inspector.fill('#text', 'live=1')
      await row.click()
      const detail = inspector.locator('#detail')
      await expect.poll(() => detail.textContent()).toContain(`${backend.url}/items?live=1`)
      const shown = (await detail.textContent()) ?? ''
      // The header is masked (the backend's echo of it in its body is a body, shown as it is).
      expect(shown).toContain('authorizationBearer [masked]')
      expect(shown).not.toContain('authorizationBearer hidden')
      // The body was kept (the inspector was open), so the POST can be replayed.
      expect(shown).toContain('hello')
      await inspector.click('#detail button')
      await expect.poll(() => inspector.locator('#detail button').textContent()).toBe('Replayed: 200')
      await expect.poll(() => inspector.locator('#rows tr', { hasText: '/api/items?live=1' }).count()).toBe(2)
    } finally {
      await app.close()
      await inspector.context().close()
    }
  }, 30_000)
})
