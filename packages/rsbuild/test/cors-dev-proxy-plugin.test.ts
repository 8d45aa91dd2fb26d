import { once } from 'node:events'
import { CorsDevProxyError, type CorsDevProxyOptions, type Routes } from '@cors-dev-proxy/core'
import type { RsbuildPlugin } from '@rsbuild/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { webSocketUrl } from '../../../test/adapters/adapter-harness.js'
import {
  closeWebSocket,
  openWebSocket,
  rawExchange,
  roundTrip,
  send,
  sendHttp2,
} from '../../../test/adapters/clients.js'
import { type RsbuildHandle, startRsbuild } from '../../../test/adapters/rsbuild-server.js'
import {
  closedPort,
  type EchoBody,
  startTargetServer,
  type TargetServer,
} from '../../../test/adapters/target-server.js'
import { NESTED_MISTAKES } from '../../../test/support/nested-mistakes.js'
import { localhostCertificate } from '../../../test/support/tls.js'
import { pluginCorsDevProxy } from '../src/cors-dev-proxy-plugin.js'

function thrown(action: () => unknown): CorsDevProxyError {
  try {
    action()
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw error
  }
  throw new Error('expected a CorsDevProxyError')
}

/** Opens a WebSocket and resolves once the server accepted the upgrade (101), whatever it sends. */
async function accepted(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url)
  const failed = once(socket, 'close').then(([code]) => {
    throw new Error(`the WebSocket closed (${code}) before it opened`)
  })
  failed.catch(() => {})
  socket.on('error', () => {})
  await Promise.race([once(socket, 'open'), failed])
  return socket
}

describe('pluginCorsDevProxy: configuration', () => {
  it.each<[title: string, routes: Routes, options: CorsDevProxyOptions | undefined, code: string]>([
    ['a target without scheme', { '/api': 'localhost:3000' }, undefined, 'INVALID_TARGET'],
    ['a key that is not a path', { api: 'http://localhost:3000' }, undefined, 'INVALID_PREFIX'],
    [
      'an unknown option',
      { '/api': 'http://localhost:3000' },
      { lgo: 'debug' } as CorsDevProxyOptions,
      'UNKNOWN_OPTION',
    ],
  ])('throws where the config is written for %s', (_title, routes, options, code) => {
    expect(thrown(() => pluginCorsDevProxy(routes, options)).code).toBe(code)
  })

  it.each(NESTED_MISTAKES.map((mistake) => [mistake.title, mistake] as const))(
    'throws a nested mistake where the config is written: %s',
    (_title, mistake) => {
      const error = thrown(() => pluginCorsDevProxy(mistake.routes, mistake.options))
      expect(error.code).toBe(mistake.code)
      expect(error.option).toBe(mistake.option)
      expect(error.message).toContain(`Fix it like this: ${mistake.fix}`)
    },
  )

  it('takes the one-object config of cors-dev-proxy.config.* too, and leaves the caller’s objects alone', () => {
    const routes = Object.freeze({ '/api': Object.freeze({ target: 'http://localhost:3000', ws: true }) })
    const plugin = pluginCorsDevProxy({ routes, log: 'silent' })
    expect(plugin.name).toBe('cors-dev-proxy')
    expect(typeof plugin.setup).toBe('function')
    expect(thrown(() => pluginCorsDevProxy({ routes: { '/api': 'localhost:3000' } })).code).toBe(
      'INVALID_TARGET',
    )
  })
})

describe('pluginCorsDevProxy in a real Rsbuild dev server', () => {
  let target: TargetServer
  let server: RsbuildHandle | undefined

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

  it('forwards GET and POST whole with the prefix removed, before Rsbuild’s middlewares and fallbacks', async () => {
    server = await startRsbuild({
      routes: { '/api': target.url },
      allowedHosts: true,
      config: { server: { headers: { 'x-rsbuild-headers': 'yes' }, historyApiFallback: true } },
    })
    // Served from the request listener, before connect: Rsbuild's `server.headers` never ran.
    const listeners = server.server.httpServer?.listeners('request') ?? []
    expect(listeners.map((listener) => listener.name)).toEqual(['corsDevProxyBeforeApp'])
    const get = await send(`${server.origin}/api/users?page=2`, { headers: { accept: 'text/html' } })
    expect(get.status).toBe(200)
    expect(get.headers['x-rsbuild-headers']).toBeUndefined()
    expect((JSON.parse(get.body) as EchoBody).url).toBe('/users?page=2')

    const body = JSON.stringify({ text: 'é'.repeat(50_000) })
    const post = await send(`${server.origin}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(post.status).toBe(200)
    const echoed = JSON.parse(post.body) as EchoBody
    expect([echoed.method, echoed.url, echoed.body === body]).toEqual(['POST', '/items', true])

    // Rsbuild's own page still gets Rsbuild's answer, headers and all.
    const page = await send(`${server.origin}/`)
    expect(page.headers['x-rsbuild-headers']).toBe('yes')
    expect(page.body).toContain('<script')
  })

  it('forwards a preflight to the backend instead of Rsbuild’s server.cors answering it', async () => {
    server = await startRsbuild({ routes: { '/api': target.url }, allowedHosts: true })
    const preflight = await send(`${server.origin}/api/items/1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['x-answered-by']).toBe('target')
    expect(target.requests.at(-1)).toMatchObject({ method: 'OPTIONS', url: '/items/1' })
    // Rsbuild's own files keep Rsbuild's server.cors.
    const own = await send(`${server.origin}/index.html`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(own.status).toBe(204)
    expect(own.headers['x-answered-by']).toBeUndefined()
  })

  it('echoes through a ws route covering / while Rsbuild’s own HMR socket still connects', async () => {
    server = await startRsbuild({ routes: { '/': { target: target.url, ws: true } } })
    const before = target.upgrades.length
    const hmr = await accepted(webSocketUrl(server, `/rsbuild-hmr?token=${server.hmrToken}`))
    const proxied = await openWebSocket(webSocketUrl(server, '/live'))
    try {
      expect(JSON.parse(proxied.first)).toMatchObject({ url: '/live' })
      expect(await roundTrip(proxied.socket, 'ping')).toBe('ping')
      expect(target.upgrades.slice(before)).toEqual(['/live'])
    } finally {
      await closeWebSocket(hmr)
      await closeWebSocket(proxied.socket)
    }
  })

  it('leaves Rsbuild’s HMR socket on a dev.client.path of yours alone, and warns about a ws route on it', async () => {
    server = await startRsbuild({
      routes: { '/__hmr': { target: target.url, ws: true }, '/live': { target: target.url, ws: true } },
      config: { dev: { client: { path: '/__hmr' } } },
    })
    const hmr = await accepted(webSocketUrl(server, `/__hmr?token=${server.hmrToken}`))
    await closeWebSocket(hmr)
    expect(server.logs.filter((line) => line.includes("Rsbuild's own HMR socket"))).toEqual([
      expect.stringContaining("the ws route '/__hmr'"),
    ])
  })

  it('leaves unclaimed upgrades to the server’s other listeners', async () => {
    // Another plugin's socket on the same server: an upgrade no ws route claims must reach it.
    const others = new WebSocketServer({ noServer: true })
    others.on('connection', (socket, req) => socket.send(`mine ${req.url}`))
    const mine: RsbuildPlugin = {
      name: 'test:other-socket',
      setup(api) {
        api.onBeforeStartDevServer(({ server: dev }) => {
          dev.httpServer?.on('upgrade', (req, socket, head) => {
            if (req.url?.startsWith('/mine') || req.url?.startsWith('/api'))
              others.handleUpgrade(req, socket, head, (ws) => others.emit('connection', ws, req))
          })
        })
      },
    }
    try {
      server = await startRsbuild({
        routes: { '/live': { target: target.url, ws: true }, '/api': target.url },
        config: { plugins: [mine] },
      })
      const before = target.upgrades.length
      const unrouted = await openWebSocket(webSocketUrl(server, '/mine'))
      // A route without `ws` leaves WebSocket upgrades on its path alone too.
      const notWs = await openWebSocket(webSocketUrl(server, '/api/socket'))
      try {
        expect(unrouted.first).toBe('mine /mine')
        expect(notWs.first).toBe('mine /api/socket')
        expect(target.upgrades.length).toBe(before)
      } finally {
        await closeWebSocket(unrouted.socket)
        await closeWebSocket(notWs.socket)
      }
    } finally {
      others.close()
    }
  })

  it('answers 502 naming the target when the backend is down, and keeps serving', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`
    server = await startRsbuild({ routes: { '/down': dead, '/api': target.url } })
    const down = await send(`${server.origin}/down/x`, { headers: { accept: 'text/plain' } })
    expect(down.status).toBe(502)
    expect(down.body).toContain(dead)
    expect(down.body).toContain('connection refused')
    expect((await send(`${server.origin}/api/after`)).status).toBe(200)
    expect(server.logs.some((line) => line.startsWith('error:') && line.includes(dead))).toBe(true)
  })

  it('keeps Rsbuild’s host check (server.allowedHosts) in front of the routes, HTTP and WebSocket', async () => {
    server = await startRsbuild({
      routes: { '/api': target.url, '/live': { target: target.url, ws: true } },
      allowedHosts: ['dev.example.com'],
    })
    const listeners = server.server.httpServer?.listeners('request') ?? []
    expect(listeners.map((listener) => listener.name)).toEqual(['corsDevProxyBeforeApp'])
    const before = target.requests.length
    const rebound = await send(`${server.origin}/api/secret`, { headers: { host: 'attacker.example' } })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toContain('server.allowedHosts')
    expect(target.requests.length).toBe(before)
    const listed = await send(`${server.origin}/api/ok`, { headers: { host: 'dev.example.com' } })
    expect(listed.headers['x-answered-by']).toBe('target')
  })

  it('keeps a middleware of another plugin mounted first in front of the routes', async () => {
    const earlier: RsbuildPlugin = {
      name: 'test:earlier',
      setup(api) {
        api.onBeforeStartDevServer(({ server: dev }) => {
          dev.middlewares.use((req, _res, next) => {
            req.headers['x-earlier'] = 'seen'
            next()
          })
        })
      },
    }
    server = await startRsbuild({ routes: { '/api': target.url }, pluginsBefore: [earlier] })
    const res = await send(`${server.origin}/api/x`)
    expect((JSON.parse(res.body) as EchoBody).headers['x-earlier']).toBe('seen')
  })

  it('warns when server.proxy claims the same requests as a route, and leaves its other entries working', async () => {
    server = await startRsbuild({
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
    expect(warnings.filter((line) => line.includes('server.proxy'))).toEqual([
      expect.stringContaining("server.proxy '/api/v1' and the cors-dev-proxy route '/api'"),
    ])
  })

  it('serves HTTP/2 and HTTP/1.1 with server.https', async () => {
    const tls = await localhostCertificate()
    server = await startRsbuild({ routes: { '/api': target.url }, tls })
    const h2 = await sendHttp2(server.origin, '/api/h2', { ca: tls.cert })
    expect([h2.alpnProtocol, h2.status]).toEqual(['h2', 200])
    expect((JSON.parse(h2.body) as EchoBody).headers['x-forwarded-proto']).toBe('https')
    const h1 = await send(`${server.origin}/api/h1`, { ca: tls.cert })
    expect([h1.httpVersion, h1.status]).toEqual(['1.1', 200])
  })
})

describe('pluginCorsDevProxy in rsbuild preview', () => {
  let target: TargetServer
  let server: RsbuildHandle | undefined

  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterAll(async () => {
    await server?.close()
    await target?.close()
  })

  it('proxies HTTP and WebSockets, preflights included, and applies the host check to upgrades', async () => {
    server = await startRsbuild({
      routes: { '/api': target.url, '/live': { target: target.url, ws: true } },
      preview: true,
    })
    const get = await send(`${server.origin}/api/users`)
    expect((JSON.parse(get.body) as EchoBody).url).toBe('/users')
    const preflight = await send(`${server.origin}/api/items`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.headers['x-answered-by']).toBe('target')
    const socket = await openWebSocket(webSocketUrl(server, '/live/chat'))
    try {
      expect(JSON.parse(socket.first)).toMatchObject({ url: '/chat' })
    } finally {
      await closeWebSocket(socket.socket)
    }
    // No server.proxy, so nothing of Rsbuild's listens to upgrades here: the refusal is the plugin's.
    const before = target.upgrades.length
    const refused = await rawExchange(
      server.origin,
      'GET /live HTTP/1.1\r\nHost: attacker.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    )
    expect(refused).toMatch(/^HTTP\/1\.1 403 /)
    expect(target.upgrades.length).toBe(before)
    expect(server.logs.some((line) => line.includes('[cors-dev-proxy] routes: '))).toBe(true)
  })
})
