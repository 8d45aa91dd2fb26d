import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkCors } from '@cors-dev-proxy/core'
import { corsDevProxy } from '@cors-dev-proxy/vite'
import { describe, expect, test } from 'vitest'
import { startVite, vite } from '../adapters/vite-server.ts'
import { openConsolePage } from '../support/browser.ts'
import { REFUSED_PORT, refusedUrl } from '../support/refused-port.ts'
import { sendRequest } from '../support/servers.ts'
import { useOverlayApp } from './overlay-app.ts'
import { expectInspectorAndHar, expectOverlayForDirectCall, overlayText } from './overlay-scenario.ts'

/** A port nobody listens on (port 2, see test/support/refused-port.ts), checked to refuse. */
async function closedPort(): Promise<number> {
  await refusedUrl()
  return REFUSED_PORT
}

/**
 * The overlay, its client and the inspector in a real Vite app, with one Chromium: the
 * acceptance scenario (before and after adding the route), `overlay: false`, the production
 * build, the client's other initiators, and the inspector page as a user works it.
 */
describe('the overlay and the inspector in a real Vite app', () => {
  const env = useOverlayApp()

  test('a direct call to a backend without CORS shows the overlay; with the route, the inspector and the HAR list it', async () => {
    // Before: only an unrelated route; Vite's `base` changes nothing for /__cors-dev-proxy/.
    const before = await startVite({ routes: { '/other': { mock: true } }, config: { base: '/app/' } })
    try {
      const html = await (await fetch(`${before.origin}/app/`)).text()
      expect(html).toContain('<script type="module" src="/__cors-dev-proxy/client.js"></script>')
      await expectOverlayForDirectCall(env.browser, `${before.origin}/app/`, env.backend.url)
    } finally {
      await before.close()
    }
    // After adding the route the overlay named.
    const after = await startVite({ routes: { '/api': env.backend.url } })
    try {
      await expectInspectorAndHar(env.browser, `${after.origin}/`, env.backend.url)
    } finally {
      await after.close()
    }
  }, 60_000)

  test('overlay: false removes the client; a foreign Origin or Host gets nothing from /__cors-dev-proxy/', async () => {
    const server = await startVite({ routes: { '/': env.backend.url }, options: { overlay: false } })
    const opened = await openConsolePage(env.browser, `${server.origin}/__cors-dev-proxy/`)
    try {
      const { page } = opened
      // The inspector is still there (a route on '/' does not shadow it); the client is not.
      expect(await page.title()).toBe('cors-dev-proxy inspector')
      const html = await (await fetch(`${server.origin}/index.html`)).text()
      expect(html).not.toContain('__cors-dev-proxy')
      expect((await fetch(`${server.origin}/__cors-dev-proxy/client.js`)).status).toBe(404)
      await page.evaluate(
        (url) => fetch(url).catch(() => undefined),
        `${env.backend.url.replace('127.0.0.1', 'localhost')}/items`,
      )
      await page.waitForTimeout(500)
      expect(await overlayText(page)).toBeNull()
      const foreign = await fetch(`${server.origin}/__cors-dev-proxy/exchanges`, {
        headers: { origin: 'http://evil.example' },
      })
      expect(foreign.status).toBe(403)
      const crossSite = await fetch(`${server.origin}/__cors-dev-proxy/har`, {
        headers: { 'sec-fetch-site': 'cross-site' },
      })
      expect(crossSite.status).toBe(403)
      const noOrigin = await fetch(`${server.origin}/__cors-dev-proxy/replay/1`, { method: 'POST' })
      expect(noOrigin.status).toBe(403)
      // Vite's Host check runs first (DNS rebinding): a foreign Host never reaches the inspector.
      const rebinding = await sendRequest(`${server.origin}/__cors-dev-proxy/exchanges`, {
        headers: { host: 'evil.example' },
      })
      expect(rebinding.status).toBe(403)
      expect(rebinding.body.toString()).not.toContain('"id"')
    } finally {
      await opened.close()
      await server.close()
    }
  }, 60_000)

  test('a production build contains none of it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cdp-vite-build-'))
    try {
      await writeFile(
        join(root, 'index.html'),
        '<!doctype html><script type="module" src="/main.js"></script>',
      )
      await writeFile(join(root, 'main.js'), "fetch('/api/items').then((r) => r.json()).then(console.log)\n")
      await vite.build({
        configFile: false,
        root,
        logLevel: 'silent',
        plugins: [corsDevProxy({ '/api': env.backend.url }) as never],
        build: { outDir: join(root, 'dist') },
      })
      const files = await readdir(join(root, 'dist'), { recursive: true })
      expect(files.some((file) => file.endsWith('.js'))).toBe(true)
      for (const file of files.filter((name) => /\.(html|js)$/.test(name))) {
        expect(await readFile(join(root, 'dist', file), 'utf8')).not.toMatch(
          /__cors-dev-proxy|cors-dev-proxy-overlay/,
        )
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }, 60_000)

  test('XMLHttpRequest, EventSource and WebSocket failures are explained; repeats are counted; what the page sees is unchanged', async () => {
    const opened = await openConsolePage(env.browser, `${env.app.origin}/`)
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
        { api: env.backend.url, wsPort },
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
        url: `${env.backend.url}/items`,
        origin: env.app.origin,
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        initiator: 'XMLHttpRequest',
      })
      expect(text).toContain(xhrModel.message)
      expect(text).toContain(`xhr.open('PUT', '/api/items')`)
      expect(text).toContain(`new EventSource('/api/items')`)
      // Chromium's own words for an EventSource: `resource`, not `fetch`.
      expect(text).toContain(
        `Access to resource at '${env.backend.url}/items' from origin '${env.app.origin}'`,
      )
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
    const inspector = (await openConsolePage(env.browser, `${env.app.origin}/__cors-dev-proxy/`)).page
    const caller = await openConsolePage(env.browser, `${env.app.origin}/`)
    try {
      await inspector.waitForFunction(() => document.querySelector('#live')?.textContent === '● live')
      await caller.page.evaluate(() =>
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
      await expect.poll(() => detail.textContent()).toContain(`${env.backend.url}/items?live=1`)
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
      await caller.close()
      await inspector.context().close()
    }
  }, 30_000)
})
