import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { corsDevProxy } from '@cors-dev-proxy/vite'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVite, vite } from '../adapters/vite-server.ts'
import { launchChromium, openConsolePage } from '../support/browser.ts'
import { sendRequest } from '../support/servers.ts'
import { startPlainBackend } from './backend.ts'
import { expectInspectorAndHar, expectOverlayForDirectCall, overlayText } from './overlay-scenario.ts'

describe('the overlay and the inspector in a real Vite app', () => {
  let browser: Browser
  let backend: Awaited<ReturnType<typeof startPlainBackend>>

  beforeAll(async () => {
    ;[browser, backend] = await Promise.all([launchChromium(), startPlainBackend()])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await backend?.close()
  })

  test('a direct call to a backend without CORS shows the overlay; with the route, the inspector and the HAR list it', async () => {
    // Before: only an unrelated route; Vite's `base` changes nothing for /__cors-dev-proxy/.
    const before = await startVite({ routes: { '/other': { mock: true } }, config: { base: '/app/' } })
    try {
      const html = await (await fetch(`${before.origin}/app/`)).text()
      expect(html).toContain('<script type="module" src="/__cors-dev-proxy/client.js"></script>')
      await expectOverlayForDirectCall(browser, `${before.origin}/app/`, backend.url)
    } finally {
      await before.close()
    }
    // After adding the route the overlay named.
    const after = await startVite({ routes: { '/api': backend.url } })
    try {
      await expectInspectorAndHar(browser, `${after.origin}/`, backend.url)
    } finally {
      await after.close()
    }
  }, 60_000)

  test('overlay: false removes the client; a foreign Origin or Host gets nothing from /__cors-dev-proxy/', async () => {
    const server = await startVite({ routes: { '/': backend.url }, options: { overlay: false } })
    const opened = await openConsolePage(browser, `${server.origin}/__cors-dev-proxy/`)
    try {
      const { page } = opened
      // The inspector is still there (a route on '/' does not shadow it); the client is not.
      expect(await page.title()).toBe('cors-dev-proxy inspector')
      const html = await (await fetch(`${server.origin}/index.html`)).text()
      expect(html).not.toContain('__cors-dev-proxy')
      expect((await fetch(`${server.origin}/__cors-dev-proxy/client.js`)).status).toBe(404)
      await page.evaluate(
        (url) => fetch(url).catch(() => undefined),
        `${backend.url.replace('127.0.0.1', 'localhost')}/items`,
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
        plugins: [corsDevProxy({ '/api': backend.url }) as never],
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
})
