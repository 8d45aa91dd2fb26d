// Takes the two screenshots of docs/guide/overlay-and-inspector.md in headless Chromium:
// docs/public/overlay.png (a direct call to a backend without CORS, in a Vite app) and
// docs/public/inspector.png (the inspector after a few proxied calls). Run after `pnpm build`:
//   node scripts/docs-overlay-screenshots.mjs
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { startDocsVite } from '../docs/scripts/vite-app.mjs'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium-launch.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const { corsDevProxy } = await import(join(root, 'packages/vite/dist/index.js'))

// A backend without CORS headers.
const backend = createServer((req, res) => {
  const slow = req.url?.includes('slow')
  setTimeout(
    () => {
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          items: [
            { id: 1, name: 'Tea' },
            { id: 2, name: 'Coffee' },
          ],
        }),
      )
    },
    slow ? 120 : 5,
  )
})
backend.listen(0, '127.0.0.1')
await once(backend, 'listening')
const api = `http://localhost:${backend.address().port}`

const app = await mkdtemp(join(tmpdir(), 'cdp-docs-'))
await writeFile(
  join(app, 'index.html'),
  `<!doctype html><html><head><title>Shop</title><style>body{font:16px system-ui;margin:40px;color:#222}</style></head>
<body><h1>Shop</h1><p>Products:</p><ul id="list"></ul></body></html>`,
)

const startVite = (routes) => startDocsVite(app, [corsDevProxy(routes)])

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
try {
  // A laptop's window: the panel takes at most a third of it, so the whole card is in sight.
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } })
  // 1. The overlay: the page calls the backend directly.
  const before = await startVite({ '/images': { mock: true } })
  await page.goto(`${before.origin}/`)
  await page.evaluate((url) => fetch(url).catch(() => undefined), `${api}/items`)
  await page.waitForSelector('cors-dev-proxy-overlay')
  await page.waitForTimeout(200)
  // The lower part of the window, where the panel is (the page above it is empty).
  await page.screenshot({
    path: join(root, 'docs/public/overlay.png'),
    clip: { x: 0, y: 360, width: 1100, height: 640 },
  })
  await before.server.close()

  // 2. The inspector: the route added, a few calls made.
  const after = await startVite({ '/api': api })
  await page.goto(`${after.origin}/`)
  await page.evaluate(async () => {
    await fetch('/api/items?page=1', { headers: { authorization: 'Bearer my-token' } })
    await fetch('/api/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Milk"}',
    })
    await fetch('/api/missing')
    await fetch('/api/items?slow=1&token=abc')
  })
  const inspector = await browser.newPage({ viewport: { width: 1600, height: 640 } })
  await inspector.goto(`${after.origin}/__cors-dev-proxy/`)
  await inspector.waitForSelector('#rows tr')
  await page.evaluate(() => fetch('/api/items?page=2', { headers: { authorization: 'Bearer my-token' } }))
  await inspector.waitForFunction(() => document.querySelectorAll('#rows tr').length >= 5)
  await inspector.click('#rows tr:nth-child(1)')
  await inspector.waitForTimeout(200)
  await inspector.screenshot({ path: join(root, 'docs/public/inspector.png') })
  await after.server.close()
} finally {
  await browser.close()
  backend.close()
  await rm(app, { recursive: true, force: true })
}
console.log('docs/public/overlay.png and docs/public/inspector.png written')
