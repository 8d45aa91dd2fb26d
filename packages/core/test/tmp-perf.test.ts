import { createServer } from 'node:http'
import { it } from 'vitest'
import { Pool } from 'undici'
import { createProxyMiddleware } from 'http-proxy-middleware'
import { serveProxy } from '../../../test/support/proxy-server.js'
import { listen } from '../../../test/support/servers.js'

async function load(url: string, total: number) {
  const pool = new Pool(url, { connections: 50 })
  let done = 0
  const start = performance.now()
  await Promise.all(Array.from({ length: 50 }, async () => {
    while (done < total) { done++; const r = await pool.request({ path: '/api/x', method: 'GET' }); await r.body.text() }
  }))
  const rps = total / ((performance.now() - start) / 1000)
  await pool.close()
  return Math.round(rps)
}
it('perf', { timeout: 120_000 }, async () => {
  const target = await listen(createServer((_q, s) => s.end('hello world')))
  const ours = await serveProxy({ '/api': target.url }, { log: 'silent' })
  const mw = createProxyMiddleware({ target: target.url, changeOrigin: true, pathRewrite: { '^/api': '' } })
  const hpm = await listen(createServer((q, s) => mw(q, s, () => s.end())))
  await load(ours.url, 2000); await load(hpm.url, 2000)
  console.log('ours', await load(ours.url, 20000), 'hpm', await load(hpm.url, 20000), 'ours', await load(ours.url, 20000))
  await ours.close(); await hpm.close(); await target.close()
})
