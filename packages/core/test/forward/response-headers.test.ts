import type { IncomingHttpHeaders } from 'node:http'
import { Agent, createServer, type ServerResponse } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { buildClientHeaders } from '../../src/forward/response-headers.js'
import type { RouteOptions } from '../../src/index.js'
import { forwardRoute } from '../support/resolved.js'

function routeWith(options: RouteOptions = {}) {
  const route = resolveOptions({ '/api': { target: 'http://127.0.0.1:3000', ...options } }).routes[0]
  return forwardRoute(route)
}

describe('buildClientHeaders', () => {
  const cases: Array<{
    name: string
    upstream: IncomingHttpHeaders
    route?: RouteOptions
    http2?: boolean
    expected: Record<string, string | string[]>
  }> = [
    {
      name: 'drops hop-by-hop fields and the fields Connection names',
      upstream: {
        connection: 'keep-alive, X-Hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        'proxy-connection': 'keep-alive',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        te: 'trailers',
        'content-type': 'text/plain',
      },
      expected: { 'content-type': 'text/plain' },
    },
    {
      name: 'keeps every Set-Cookie line separate and removes Domain by default',
      upstream: {
        'set-cookie': [
          'a=1; Domain=api.example; Path=/',
          'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Domain=.example',
        ],
      },
      expected: { 'set-cookie': ['a=1; Path=/', 'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT'] },
    },
    {
      name: 'applies cookieDomainRewrite and cookiePathRewrite',
      upstream: { 'set-cookie': ['a=1; Domain=api.example; Path=/v1'] },
      route: { cookieDomainRewrite: { 'api.example': 'localhost' }, cookiePathRewrite: { '/v1': '/api' } },
      expected: { 'set-cookie': ['a=1; Domain=localhost; Path=/api'] },
    },
    {
      name: 'keeps Set-Cookie untouched when both rewrites are off',
      upstream: { 'set-cookie': ['a=1; Domain=api.example'] },
      route: { cookieDomainRewrite: false },
      expected: { 'set-cookie': ['a=1; Domain=api.example'] },
    },
    {
      name: 'combines repeated fields into one line for an HTTP/2 client',
      upstream: { 'x-multi': ['a', 'b'] as unknown as string, 'set-cookie': ['a=1', 'b=2'] },
      http2: true,
      expected: { 'x-multi': 'a, b', 'set-cookie': ['a=1', 'b=2'] },
    },
  ]

  it.each(cases)('$name', ({ upstream, route, http2, expected }) => {
    expect(buildClientHeaders(upstream, routeWith(route), { http2: http2 === true })).toEqual(expected)
  })
})

describe('response headers over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  /** A target that sends every connection-specific header it can, as Express and Node do by default. */
  function noisyAnswer(res: ServerResponse): void {
    res.setHeader('connection', 'keep-alive, X-Hop')
    res.setHeader('keep-alive', 'timeout=77, max=3')
    res.setHeader('x-hop', 'connection-specific')
    res.setHeader('proxy-connection', 'keep-alive')
    res.setHeader('x-multi', ['a', 'b'])
    res.setHeader('set-cookie', ['sid=1; Domain=api.example; Path=/', 'theme=dark; Domain=api.example'])
    res.setHeader('content-type', 'text/plain')
    // No Content-Length: the body goes out chunked, so Transfer-Encoding is set too.
    res.write('hello ')
    res.end('browser')
  }

  async function setup(kind: ProxyServerKind) {
    const target = await listen(createServer((_req, res) => noisyAnswer(res)))
    cleanup.push(target.close)
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' }, kind)
    cleanup.push(proxy.close)
    return proxy
  }

  it('keeps the HTTP/1.1 client connection alive and strips the target hop-by-hop fields', async () => {
    const proxy = await setup('http')
    let connections = 0
    proxy.server.on('connection', () => connections++)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    cleanup.push(async () => agent.destroy())
    for (let i = 0; i < 3; i++) {
      const res = await sendRequest(`${proxy.url}/api/x`, { agent })
      expect(res.status).toBe(200)
      expect(res.body.toString()).toBe('hello browser')
      expect(res.headers.connection).toBe('keep-alive')
      expect(res.headers['keep-alive']).not.toBe('timeout=77, max=3')
      expect(res.headers['x-hop']).toBeUndefined()
      expect(res.headers['proxy-connection']).toBeUndefined()
      expect(res.headers['set-cookie']).toEqual(['sid=1; Path=/', 'theme=dark'])
    }
    expect(connections).toBe(1)
  })

  it('keeps the HTTP/1.1 client connection alive when the target closes its own after each answer', async () => {
    let targetConnections = 0
    const target = await listen(
      createServer((_req, res) => {
        res.setHeader('connection', 'close')
        res.end('closing upstream')
      }),
    )
    target.server.on('connection', () => targetConnections++)
    cleanup.push(target.close)
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(proxy.close)
    let clientConnections = 0
    proxy.server.on('connection', () => clientConnections++)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    cleanup.push(async () => agent.destroy())
    for (let i = 0; i < 3; i++) {
      const res = await sendRequest(`${proxy.url}/api/x`, { agent })
      expect(res.body.toString()).toBe('closing upstream')
      expect(res.headers.connection).toBe('keep-alive')
    }
    // The target closed each of its connections; the browser's one stayed open (Vite's proxy closes it).
    expect(targetConnections).toBe(3)
    expect(clientConnections).toBe(1)
  })

  it.each(['h2', 'h2c'] as const)(
    'answers an HTTP/2 client (%s) with no connection-specific field even when the target sends Keep-Alive',
    async (kind) => {
      const proxy = await setup(kind)
      const res = await sendHttp2Request(`${proxy.url}/api/x`)
      expect(res.status).toBe(200)
      expect(res.body.toString()).toBe('hello browser')
      for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'x-hop']) {
        expect(res.headers[name], name).toBeUndefined()
      }
      expect(res.headers['x-multi']).toBe('a, b')
      expect(res.headers['set-cookie']).toEqual(['sid=1; Path=/', 'theme=dark'])
    },
  )

  it('answers 502, not a crash or a hang, when HTTP/2 cannot carry what the target sent', async () => {
    // Status 600 is valid HTTP/1.1 syntax (three digits) but outside HTTP/2's 100-599.
    const target = await listen(
      createNetServer((socket) => {
        socket.on('error', () => undefined)
        socket.once('data', () => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 2\r\n\r\nok'))
      }),
    )
    cleanup.push(target.close)
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' }, 'h2c')
    cleanup.push(proxy.close)
    const res = await sendHttp2Request(`${proxy.url}/api/x`)
    expect(res.status).toBe(502)
    expect(res.body.toString()).toMatch(/^invalid response header: .*ERR_HTTP2_STATUS_INVALID/)
  })

  it('serves HTTP/1.1 clients on the HTTP/2 server too (allowHTTP1)', async () => {
    const proxy = await setup('h2')
    const res = await sendRequest(`${proxy.url}/api/x`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('hello browser')
    expect(res.headers['x-hop']).toBeUndefined()
  })
})
