import type { OutgoingHttpHeaders } from 'node:http'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { buildUpstreamHeaders } from '../../src/forward/request-headers.js'
import type { ProxyRequest, RouteOptions } from '../../src/index.js'
import { forwardRoute } from '../support/resolved.js'

const TARGET = 'http://127.0.0.1:3000'

function routeWith(options: RouteOptions = {}) {
  const route = resolveOptions({ '/api': { target: TARGET, ...options } }).routes[0]
  return forwardRoute(route)
}

/** A request as Node hands it over, reduced to what the header rules read. */
function fakeRequest(
  headers: Record<string, string>,
  socket = { remoteAddress: '127.0.0.1', encrypted: false },
) {
  return { headers, socket } as unknown as ProxyRequest
}

describe('buildUpstreamHeaders', () => {
  const cases: Array<{
    name: string
    headers: Record<string, string>
    route?: RouteOptions
    socket?: { remoteAddress: string; encrypted: boolean }
    expected: Record<string, string>
  }> = [
    {
      name: 'drops hop-by-hop fields, the fields Connection names, Proxy-Authorization and Expect',
      headers: {
        host: 'localhost:5173',
        connection: 'keep-alive, X-Secret',
        'x-secret': 'per-connection',
        'keep-alive': 'timeout=5',
        'proxy-connection': 'keep-alive',
        te: 'gzip',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        'http2-settings': 'AAMAAABkAAQAAP__',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        expect: '100-continue',
        accept: 'text/html',
      },
      route: { xfwd: false },
      expected: { host: '127.0.0.1:3000', accept: 'text/html' },
    },
    {
      name: 'keeps TE: trailers, the one TE value about the message',
      headers: { host: 'localhost:5173', connection: 'TE', te: 'trailers' },
      route: { xfwd: false },
      expected: { host: '127.0.0.1:3000', te: 'trailers' },
    },
    {
      name: 'drops HTTP/2 pseudo-headers and sends :authority as Host when changeOrigin is off',
      headers: {
        ':method': 'GET',
        ':path': '/api/x',
        ':scheme': 'https',
        ':authority': 'dev.local:5173',
        accept: '*/*',
      },
      route: { changeOrigin: false, xfwd: false },
      expected: { host: 'dev.local:5173', accept: '*/*' },
    },
    {
      name: "sends the target's host:port with changeOrigin (the default)",
      headers: { host: 'dev.local:5173' },
      route: { xfwd: false },
      expected: { host: '127.0.0.1:3000' },
    },
    {
      name: "sends the client's Host when changeOrigin is off",
      headers: { host: 'dev.local:5173' },
      route: { changeOrigin: false, xfwd: false },
      expected: { host: 'dev.local:5173' },
    },
    {
      name: 'adds X-Forwarded-* and X-Real-IP',
      headers: { host: 'dev.local:5173' },
      expected: {
        host: '127.0.0.1:3000',
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'dev.local:5173',
        'x-forwarded-port': '5173',
        'x-real-ip': '127.0.0.1',
      },
    },
    {
      name: 'appends to X-Forwarded-For and keeps what an outer proxy set',
      headers: {
        host: 'dev.local:5173',
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'app.example',
        'x-forwarded-port': '443',
        'x-real-ip': '203.0.113.7',
      },
      socket: { remoteAddress: '10.0.0.2', encrypted: false },
      expected: {
        host: '127.0.0.1:3000',
        'x-forwarded-for': '203.0.113.7, 10.0.0.2',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'app.example',
        'x-forwarded-port': '443',
        'x-real-ip': '203.0.113.7',
      },
    },
    {
      name: "reports https and the scheme's default port for a TLS client whose Host has no port",
      headers: { ':authority': 'dev.local', ':scheme': 'https' },
      socket: { remoteAddress: '::1', encrypted: true },
      expected: {
        host: '127.0.0.1:3000',
        'x-forwarded-for': '::1',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'dev.local',
        'x-forwarded-port': '443',
        'x-real-ip': '::1',
      },
    },
    {
      name: 'reads the port of an IPv6 Host',
      headers: { host: '[::1]:5173' },
      socket: { remoteAddress: '::1', encrypted: false },
      expected: {
        host: '127.0.0.1:3000',
        'x-forwarded-for': '::1',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': '[::1]:5173',
        'x-forwarded-port': '5173',
        'x-real-ip': '::1',
      },
    },
    {
      name: "adds the route's fixed headers last, so they win (a fixed Host too)",
      headers: { host: 'dev.local:5173', 'x-api-key': 'from-the-browser' },
      route: { xfwd: false, headers: { 'X-Api-Key': 'dev', host: 'api.internal' } },
      expected: { host: 'api.internal', 'x-api-key': 'dev' },
    },
  ]

  it.each(cases)('$name', ({ headers, route, socket, expected }) => {
    expect(buildUpstreamHeaders(fakeRequest(headers, socket), routeWith(route))).toEqual(expected)
  })

  it('does not modify the client request headers', () => {
    const headers = { host: 'dev.local:5173', connection: 'close' }
    buildUpstreamHeaders(fakeRequest(headers), routeWith())
    expect(headers).toEqual({ host: 'dev.local:5173', connection: 'close' })
  })
})

describe('request headers over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  async function setup(route: RouteOptions, kind: 'http' | 'h2' = 'http') {
    const seen: IncomingHttpHeaders[] = []
    const target = await listen(
      createServer((req, res) => {
        seen.push(req.headers)
        res.end('ok')
      }),
    )
    cleanup.push(target.close)
    const proxy = await serveProxy({ '/api': { target: target.url, ...route } }, { log: 'silent' }, kind)
    cleanup.push(proxy.close)
    return { target, proxy, seen }
  }

  it('strips hop-by-hop request headers before they reach the target', async () => {
    const { proxy, seen } = await setup({})
    const headers: OutgoingHttpHeaders = {
      connection: 'keep-alive, X-Secret',
      'x-secret': 'per-connection',
      'keep-alive': 'timeout=5',
      'proxy-connection': 'keep-alive',
      te: 'gzip',
      upgrade: 'h2c',
      'proxy-authorization': 'Basic dXNlcjpwYXNz',
      'x-kept': 'yes',
    }
    const res = await sendRequest(`${proxy.url}/api/x`, { headers })
    expect(res.status).toBe(200)
    const received = seen[0] ?? {}
    for (const name of [
      'x-secret',
      'keep-alive',
      'proxy-connection',
      'te',
      'upgrade',
      'proxy-authorization',
    ]) {
      expect(received[name], name).toBeUndefined()
    }
    // undici's own connection management, not the client's Connection header.
    expect(received.connection).toBe('keep-alive')
    expect(received['x-kept']).toBe('yes')
  })

  it('sends Host, X-Forwarded-* and fixed headers as configured', async () => {
    const { target, proxy, seen } = await setup({ headers: { 'x-api-key': 'dev' } })
    await sendRequest(`${proxy.url}/api/x`, {
      headers: { host: 'dev.local:5173', 'x-forwarded-for': '203.0.113.7' },
    })
    expect(seen[0]).toMatchObject({
      host: `127.0.0.1:${target.port}`,
      'x-forwarded-for': '203.0.113.7, 127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'dev.local:5173',
      'x-forwarded-port': '5173',
      'x-real-ip': '127.0.0.1',
      'x-api-key': 'dev',
    })
  })

  it('sends no forwarding headers with xfwd: false and the client Host with changeOrigin: false', async () => {
    const { proxy, seen } = await setup({ xfwd: false, changeOrigin: false })
    await sendRequest(`${proxy.url}/api/x`, { headers: { host: 'dev.local:5173' } })
    const received = seen[0] ?? {}
    expect(received.host).toBe('dev.local:5173')
    expect(Object.keys(received).filter((name) => name.startsWith('x-'))).toEqual([])
  })

  it('turns an HTTP/2 request into HTTP/1.1: :authority becomes Host, https in X-Forwarded-Proto', async () => {
    const { proxy, seen } = await setup({ changeOrigin: false }, 'h2')
    const res = await sendHttp2Request(`${proxy.url}/api/x?y=1`, { ':method': 'POST' }, 'body')
    expect(res.status).toBe(200)
    const received = seen[0] ?? {}
    expect(received.host).toBe(`127.0.0.1:${proxy.port}`)
    expect(received['x-forwarded-proto']).toBe('https')
    expect(Object.keys(received).filter((name) => name.startsWith(':'))).toEqual([])
  })

  it('forwards TE: trailers from an HTTP/2 client, the one TE value about the message', async () => {
    const { proxy, seen } = await setup({}, 'h2')
    const res = await sendHttp2Request(`${proxy.url}/api/x`, { te: 'trailers', 'x-kept': 'yes' })
    expect(res.status).toBe(200)
    expect(seen[0]).toMatchObject({ te: 'trailers', 'x-kept': 'yes' })
  })

  it('drops any other TE value from an HTTP/1.1 client, and the Connection that names it', async () => {
    const { proxy, seen } = await setup({})
    await sendRequest(`${proxy.url}/api/x`, { headers: { connection: 'TE', te: 'trailers, deflate' } })
    expect(seen[0]?.te).toBeUndefined()
  })
})

describe('the Origin rule (rewriteOrigin)', () => {
  const own = { host: 'localhost:5173', origin: 'http://localhost:5173' }
  it.each<[title: string, headers: Record<string, string>, route: RouteOptions, origin: string | undefined]>([
    ['a same-origin call gets the target origin', own, {}, 'http://127.0.0.1:3000'],
    [
      'another page keeps its Origin',
      { host: 'localhost:5173', origin: 'http://localhost:4000' },
      {},
      'http://localhost:4000',
    ],
    ['Origin: null stays null', { host: 'localhost:5173', origin: 'null' }, {}, 'null'],
    [
      'without changeOrigin, Host and Origin are the dev server pair: unchanged',
      own,
      { changeOrigin: false },
      'http://localhost:5173',
    ],
    ['rewriteOrigin: false leaves it', own, { rewriteOrigin: false }, 'http://localhost:5173'],
    ['no Origin stays absent', { host: 'localhost:5173' }, {}, undefined],
    [
      'a fixed origin header still wins',
      own,
      { headers: { origin: 'http://fixed.test' } },
      'http://fixed.test',
    ],
  ])('%s', (_title, headers, route, origin) => {
    expect(buildUpstreamHeaders(fakeRequest(headers), routeWith(route)).origin).toBe(origin)
  })

  it('compares with the scheme the client used: an https page is not the http origin', () => {
    const tls = { remoteAddress: '127.0.0.1', encrypted: true }
    expect(
      buildUpstreamHeaders(
        fakeRequest({ host: 'localhost:5173', origin: 'https://localhost:5173' }, tls),
        routeWith(),
      ).origin,
    ).toBe('http://127.0.0.1:3000')
    expect(
      buildUpstreamHeaders(
        fakeRequest({ host: 'localhost:5173', origin: 'http://localhost:5173' }, tls),
        routeWith(),
      ).origin,
    ).toBe('http://localhost:5173')
  })

  it('is the shared default too, and a route may turn it off', () => {
    const { routes } = resolveOptions(
      { '/a': TARGET, '/b': { target: TARGET, rewriteOrigin: true } },
      { rewriteOrigin: false },
    )
    const [first, second] = routes.map(forwardRoute)
    expect(first?.rewriteOrigin).toBe(false)
    expect(second?.rewriteOrigin).toBe(true)
  })
})
