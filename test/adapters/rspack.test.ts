import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type DevServerHandle, webSocketUrl } from './adapter-harness.js'
import { describeAdapter } from './adapter-suite.js'
import { closeWebSocket, openWebSocket, send } from './clients.js'
import { describeHooks } from './hooks-suite.js'
import { rspackHarness, startRspackDevServer } from './rspack-server.js'
import { type EchoBody, startTargetServer, type TargetServer } from './target-server.js'

// The webpack adapter (`@cors-dev-proxy/webpack`) on Rspack's dev server, as `rspack serve` runs it.
describeAdapter(rspackHarness)
describeHooks(rspackHarness)

describe(`${rspackHarness.name}: placement among its middlewares`, () => {
  let target: TargetServer
  let server: DevServerHandle | undefined

  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  afterAll(async () => {
    await target?.close()
  })

  it('answers the routes before its compression, after its Host and cross-origin checks', async () => {
    server = await startRspackDevServer({ routes: { '/api': target.url } })
    const gzip = { 'accept-encoding': 'gzip' }
    const proxied = await send(`${server.origin}/api/early`, { headers: gzip })
    expect(proxied.headers['x-answered-by']).toBe('target')
    expect(proxied.headers['content-encoding']).toBeUndefined()
    const bundle = await send(`${server.origin}/main.js`, { headers: gzip })
    expect(bundle.headers['content-encoding']).toBe('gzip')

    const before = target.requests.length
    const rebinding = await send(`${server.origin}/api/x`, { headers: { host: 'evil.example' } })
    expect(rebinding).toMatchObject({ status: 403, body: 'Invalid Host header' })
    const noCors = await send(`${server.origin}/api/x`, {
      headers: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'cross-site' },
    })
    expect(noCors).toMatchObject({ status: 403, body: 'Cross-Origin request blocked' })
    expect(target.requests.length).toBe(before)
  })

  it('keeps a middleware of yours listed before the proxy in front of its routes', async () => {
    server = await startRspackDevServer({
      routes: { '/api': target.url },
      options: {
        setupMiddlewares(middlewares) {
          middlewares.unshift({
            name: 'mine',
            middleware: (req: { headers: Record<string, string> }, _res: unknown, next: () => void) => {
              req.headers['x-mine'] = 'seen'
              next()
            },
          })
          return middlewares
        },
      },
    })
    const res = await send(`${server.origin}/api/x`)
    expect((JSON.parse(res.body) as EchoBody).headers['x-mine']).toBe('seen')
  })

  it('leaves its HMR socket (/ws) alone even when a ws route covers /', async () => {
    server = await startRspackDevServer({ routes: { '/': { target: target.url, ws: true } } })
    const before = target.upgrades.length
    const hmr = await openWebSocket(webSocketUrl(server, '/ws'), { origin: server.origin })
    const proxied = await openWebSocket(webSocketUrl(server, '/live'), { origin: server.origin })
    try {
      expect(JSON.parse(hmr.first)).toHaveProperty('type')
      expect(JSON.parse(proxied.first)).toMatchObject({ url: '/live' })
      expect(target.upgrades.slice(before)).toEqual(['/live'])
    } finally {
      await closeWebSocket(hmr.socket)
      await closeWebSocket(proxied.socket)
    }
  })
})
