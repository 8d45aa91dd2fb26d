// Takes the screenshots of the inspector's live controls for docs/guide/backend-control.md,
// docs/guide/record-replay.md and docs/guide/mocks.md, in headless Chromium, into docs/public/screenshots/:
//   inspector-controls.png  the inspector with a target select, a faults switch and a record switch
//   inspector-replayed.png  an exchange answered from the recordings, selected (replayed from …)
//   overlay-faults-badge.png  an app page with the overlay's "faults on" badge
//   inspector-mock-this-answer.png  a forwarded exchange written as a mock file ("Mock this answer")
// A Vite 8 dev server with the plugin, as users run it. Re-runnable, not part of `pnpm test`;
// run after `pnpm build`:
//   node docs/scripts/screenshots.mjs
import { once } from 'node:events'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/support/chromium-launch.mjs'
import { startDocsVite } from './vite-app.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const out = join(root, 'docs/public/screenshots')
const { corsDevProxy } = await import(join(root, 'packages/vite/dist/index.js'))

/** A backend that names itself in its answers. */
async function startBackend(name) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    if (req.url?.startsWith('/orders'))
      res.end(JSON.stringify({ orders: [{ id: 7, total: 12.5 }], from: name }))
    else if (req.url?.startsWith('/status')) res.end(JSON.stringify({ ok: true, from: name }))
    else res.end(JSON.stringify({ users: [{ id: 1, name: 'Ada' }], from: name }))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${server.address().port}` }
}

const app = await mkdtemp(join(tmpdir(), 'cdp-docs-shots-'))
const recordings = join(app, 'recordings')
await writeFile(
  join(app, 'index.html'),
  `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<style>body{font:16px system-ui;margin:40px;color:#222} pre{background:#f4f4f4;padding:12px}</style></head>
<body><h1>Shop</h1><p>What the API answered:</p><pre id="answers">loading…</pre>
<script type="module">
const answers = await Promise.all(
  ['/api/users', '/api/orders', '/payments/status'].map(async (url) => {
    const res = await fetch(url)
    return url + ' → ' + res.status + ' ' + (await res.text())
  }),
)
document.querySelector('#answers').textContent = answers.join('\\n')
</script></body></html>`,
)

const startVite = (routes) =>
  startDocsVite(app, [corsDevProxy(routes, { log: 'silent', recordings: { dir: recordings } })])

const local = await startBackend('local')
const staging = await startBackend('staging')
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
try {
  await mkdir(out, { recursive: true })
  const viewport = { width: 1000, height: 700 }
  const page = await browser.newPage({ viewport })

  // 1. Record the app's calls while the local backend is up; then the local backend stops.
  const recording = await startVite({ '/api': { target: local.url, record: true } })
  await page.goto(`${recording.origin}/`)
  await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('/payments'))
  await recording.server.close()
  while ((await readdir(join(recordings, 'api')).catch(() => [])).length < 2)
    await new Promise((resolve) => setTimeout(resolve, 50))
  local.server.close()

  // 2. The same app with targets, faults and recordings: the local target is down, so /api replays.
  const dev = await startVite({
    '/api': {
      targets: { local: local.url, staging: staging.url },
      latency: [100, 300],
      replay: 'fallback',
      record: true,
    },
    '/payments': { target: staging.url, failRate: 0.1 },
  })
  await page.goto(`${dev.origin}/`)
  await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('/payments'))
  await page.waitForSelector('#cors-dev-proxy-fault-badge', { state: 'visible' })
  await page.screenshot({ path: join(out, 'overlay-faults-badge.png') })

  const inspector = await browser.newPage({ viewport })
  await inspector.goto(`${dev.origin}/__cors-dev-proxy/`)
  await inspector.getByLabel('Record /api').waitFor()
  await inspector.waitForFunction(() => document.querySelectorAll('#rows tr').length >= 3)
  await inspector.screenshot({ path: join(out, 'inspector-controls.png') })
  await inspector.locator('#rows tr', { hasText: '(replayed)' }).first().click()
  await inspector.getByText('replayed from').waitFor()
  await inspector.screenshot({ path: join(out, 'inspector-replayed.png') })
  await dev.server.close()

  // 3. A route with mocks beside its target: a forwarded answer written as a mock file. The
  // inspector is opened first, as bodies are copied only while it is open.
  const mocking = await startVite({
    '/api': { target: staging.url, mocks: { 'GET /orders': { json: { orders: [] } } } },
  })
  await inspector.goto(`${mocking.origin}/__cors-dev-proxy/`)
  await inspector.locator('#live', { hasText: 'live' }).waitFor()
  await page.goto(`${mocking.origin}/`)
  await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('/payments'))
  await inspector.locator('#rows tr', { hasText: '(mocked)' }).first().waitFor()
  await inspector.locator('#rows tr', { hasText: '/api/users' }).first().click()
  await inspector.getByRole('button', { name: 'Mock this answer' }).click()
  await inspector.getByRole('button', { name: /^Mocked: / }).waitFor()
  await inspector.screenshot({ path: join(out, 'inspector-mock-this-answer.png') })
  await mocking.server.close()
} finally {
  await browser.close()
  local.server.close()
  staging.server.close()
  await rm(app, { recursive: true, force: true })
}
for (const name of await readdir(out))
  console.log(`docs/public/screenshots/${name}: ${Math.round((await stat(join(out, name))).size / 1024)} KB`)
