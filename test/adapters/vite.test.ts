import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { localhostCertificate } from '../support/tls.js'
import { webSocketUrl } from './adapter-harness.js'
import { describeAdapter } from './adapter-suite.js'
import { closeWebSocket, openWebSocket, rawExchange, send, sendHttp2 } from './clients.js'
import { describeHooks } from './hooks-suite.js'
import { type EchoBody, startTargetServer, type TargetServer } from './target-server.js'
import { startVite, type ViteHandle, vite, viteHarness } from './vite-server.js'

describeAdapter(viteHarness)
describeHooks(viteHarness)

describe(`${viteHarness.name}: what the plugin leaves to Vite`, () => {
  let target: TargetServer
  let server: ViteHandle | undefined

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

  it("leaves Vite's HMR socket alone even when a ws route covers /", async () => {
    server = await startVite({ routes: { '/': { target: target.url, ws: true } } })
    const before = target.upgrades.length
    const token = (server.server.config as { webSocketToken?: string }).webSocketToken
    const hmr = await openWebSocket(webSocketUrl(server, `/?token=${token}`), { protocols: ['vite-hmr'] })
    const proxied = await openWebSocket(webSocketUrl(server, '/live'))
    try {
      expect(JSON.parse(hmr.first)).toMatchObject({ type: 'connected' })
      expect(JSON.parse(proxied.first)).toMatchObject({ url: '/live' })
      expect(target.upgrades.slice(before)).toEqual(['/live'])
    } finally {
      await closeWebSocket(hmr.socket)
      await closeWebSocket(proxied.socket)
    }
  })

  it("forwards another Vite app's HMR socket proxied under a route (same subprotocol, another path)", async () => {
    server = await startVite({ routes: { '/app': { target: target.url, ws: true } } })
    const before = target.upgrades.length
    const remote = await openWebSocket(webSocketUrl(server, '/app/'), { protocols: ['vite-hmr'] })
    try {
      expect(JSON.parse(remote.first)).toMatchObject({ url: '/', protocol: 'vite-hmr' })
      expect(target.upgrades.slice(before)).toEqual(['/'])
    } finally {
      await closeWebSocket(remote.socket)
    }
  })

  it("keeps Vite's default CORS allow-list for Vite's own files", async () => {
    server = await startVite({ routes: { '/api': target.url } })
    const foreign = await send(`${server.origin}/@vite/client`, {
      headers: { origin: 'https://app.example.com' },
    })
    expect(foreign.status).toBe(200)
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()

    const local = await send(`${server.origin}/@vite/client`, {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173')

    // Vite still answers preflights of its own files itself.
    const preflight = await send(`${server.origin}/index.html`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(
      target.requests.some((request) => request.method === 'OPTIONS' && request.url === '/index.html'),
    ).toBe(false)
  })

  it("keeps Vite's host check (DNS-rebinding protection) in front of proxied routes", async () => {
    server = await startVite({ routes: { '/api': target.url } })
    const before = target.requests.length
    const rebound = await send(`${server.origin}/api/secret`, { headers: { host: 'attacker.example' } })
    expect(rebound.status).toBe(403)
    expect(target.requests.length).toBe(before)
  })

  it("answers the routes before connect and the rest of Vite, after Vite's own checks", async () => {
    server = await startVite({ routes: { '/api': target.url } })
    const listeners = server.server.httpServer?.listeners('request') ?? []
    expect(listeners.map((listener) => listener.name)).toEqual(['corsDevProxyBeforeApp'])
    const before = target.requests.length
    // Vite refuses a `#` in the request target (browsers never send one) before any plugin: still.
    const fragment = await rawExchange(
      server.origin,
      'GET /api/x#y HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    )
    expect(fragment).toMatch(/^HTTP\/1\.1 400/)
    expect(target.requests.length).toBe(before)
    expect((await send(`${server.origin}/api/x`)).headers['x-answered-by']).toBe('target')
  })

  it("keeps another plugin's middleware mounted before the routes in front of them", async () => {
    const earlier = {
      name: 'earlier',
      enforce: 'pre' as const,
      configureServer(vite: { middlewares: { use(fn: unknown): void } }) {
        vite.middlewares.use((req: { headers: Record<string, string> }, _res: unknown, next: () => void) => {
          req.headers['x-earlier'] = 'seen'
          next()
        })
      },
    }
    server = await startVite({ routes: { '/api': target.url }, config: { plugins: [earlier as never] } })
    const res = await send(`${server.origin}/api/x`)
    expect((JSON.parse(res.body) as EchoBody).headers['x-earlier']).toBe('seen')
  })

  it('keeps server.proxy working and warns when it claims the same requests as a route', async () => {
    server = await startVite({
      routes: { '/api': target.url },
      config: { server: { proxy: { '/legacy': target.url, '/api/v1': 'http://127.0.0.1:9' } } },
    })
    const legacy = await send(`${server.origin}/legacy/items`)
    expect(legacy.status).toBe(200)
    expect(target.requests.at(-1)?.url).toBe('/legacy/items')

    const shadowed = await send(`${server.origin}/api/v1/items`)
    expect(shadowed.status).toBe(200)
    expect(target.requests.at(-1)?.url).toBe('/v1/items')

    const warnings = server.logs.filter((line) => line.startsWith('warn:'))
    expect(warnings.some((line) => line.includes("server.proxy['/api/v1']") && line.includes("'/api'"))).toBe(
      true,
    )
    expect(warnings.some((line) => line.includes('/legacy'))).toBe(false)
  })

  it('serves HTTP/2 with server.https and server.proxy where Vite allows it, and says so where it does not', async () => {
    const tls = await localhostCertificate()
    server = await startVite({
      routes: { '/api': target.url },
      tls,
      config: { server: { proxy: { '/legacy': target.url } } },
    })
    const res = await sendHttp2(server.origin, '/api/items', { ca: tls.cert }).catch(() => undefined)
    const warned = server.logs.some((line) => line.startsWith('warn:') && line.includes('without HTTP/2'))
    // Vite 6 falls back to HTTPS/1.1 when server.proxy is set; Vite 7 and 8 always offer h2.
    if (vite.version.startsWith('6.')) {
      expect(res).toBeUndefined()
      expect(warned).toBe(true)
    } else {
      expect(res?.status).toBe(200)
      expect(warned).toBe(false)
    }
  })

  it('works in vite preview: prefix removal, cors preflight, forwarded preflight', async () => {
    server = await startVite({
      routes: {
        '/api': target.url,
        '/cors-api': { target: target.url, cors: { origin: 'https://app.example.com' } },
      },
      preview: true,
    })
    const get = await send(`${server.origin}/api/users?page=2`)
    expect(get.status).toBe(200)
    expect(target.requests.at(-1)?.url).toBe('/users?page=2')

    const local = await send(`${server.origin}/cors-api/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' },
    })
    expect(local.status).toBe(204)
    expect(local.headers['access-control-allow-origin']).toBe('https://app.example.com')

    const forwarded = await send(`${server.origin}/api/items`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(forwarded.headers['x-answered-by']).toBe('target')
    expect(server.logs.some((line) => line.includes(`routes: /api → ${target.url}, /cors-api →`))).toBe(true)
  })
})
