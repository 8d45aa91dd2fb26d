import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { expectConfigError } from '../../../../test/support/config-error.js'
import {
  captureLogSink,
  collectBody,
  listen,
  openRequest,
  sendRequest,
} from '../../../../test/support/servers.js'
import { type CorsDevProxyOptions, createCorsDevProxy, type Routes } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** A target that answers JSON describing the request; `/gzip` answers gzipped, `/events` streams. */
async function startTarget(name = 'a') {
  const seen: Seen[] = []
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = (await collectBody(req)).toString()
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      res.end(gzipSync(JSON.stringify({ name, secret: 'x' })))
      return
    }
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: 1\n\n')
      setTimeout(() => res.end('data: 2\n\n'), 50)
      return
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.end(Buffer.alloc(17 * 1024 * 1024))
      return
    }
    res.setHeader('content-type', 'application/json')
    res.setHeader('x-target', name)
    res.end(JSON.stringify({ name, url: req.url, token: req.headers['x-token'] ?? null }))
  })
  const started = await listen(server)
  cleanup.push(started.close)
  return { url: started.url, seen }
}

/** A dev server: Express with the proxy first and a fallback that says what reached it. */
async function startDevServer(routes: Routes, options: CorsDevProxyOptions = {}) {
  const sink = captureLogSink()
  const proxy = createCorsDevProxy(routes, { logger: sink, ...options })
  const app = express()
  app.use((req, res, next) => proxy.middleware(req, res, next))
  app.use((req, res) => res.status(299).send(`dev server ${req.url}`))
  const server = createServer(app)
  server.on('upgrade', (req, socket, head) => {
    if (!proxy.upgrade(req, socket, head)) socket.end('HTTP/1.1 418 Dev Server\r\n\r\n')
  })
  const started = await listen(server)
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return { url: started.url, sink, port: started.port }
}

const json = async (url: string, init?: Parameters<typeof sendRequest>[1]) => {
  const res = await sendRequest(url, init)
  return { status: res.status, headers: res.headers, body: res.body.toString() }
}

describe('on.proxyReq', () => {
  it('sees the outgoing request after router and pathRewrite, and may set headers and the path (async too)', async () => {
    const a = await startTarget('a')
    const b = await startTarget('b')
    const calls: string[] = []
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        router: () => b.url,
        pathRewrite: (path) => path.replace('/api', '/v1'),
        on: {
          async proxyReq(proxyReq, req) {
            calls.push(`${proxyReq.method} ${proxyReq.path} → ${proxyReq.target.origin} (${req.url})`)
            await new Promise((resolve) => setTimeout(resolve, 5))
            proxyReq.setHeader('X-Token', 'signed')
            proxyReq.removeHeader('x-drop')
            proxyReq.path = `${proxyReq.path}&signed=1`
          },
        },
      },
    })
    const res = await json(`${dev.url}/api/users?x=1`, { headers: { 'x-drop': 'gone' } })
    expect(JSON.parse(res.body)).toEqual({ name: 'b', url: '/v1/users?x=1&signed=1', token: 'signed' })
    expect(calls).toEqual([`GET /v1/users?x=1 → ${b.url} (/api/users?x=1)`])
    expect(b.seen[0]?.headers['x-drop']).toBeUndefined()
    expect(a.seen).toHaveLength(0)
  })

  it('runs the shared hooks, then the route’s, then configure’s, in order', async () => {
    const a = await startTarget()
    const order: string[] = []
    const dev = await startDevServer(
      {
        '/api': {
          target: a.url,
          on: { proxyReq: () => void order.push('route') },
          configure(proxy) {
            proxy.on('proxyReq', () => void order.push('configure'))
            proxy.once('proxyReq', () => void order.push('once'))
            const removed = () => void order.push('removed')
            proxy.on('proxyReq', removed)
            proxy.off('proxyReq', removed)
          },
        },
      },
      { on: { proxyReq: () => void order.push('shared') } },
    )
    await json(`${dev.url}/api/1`)
    await json(`${dev.url}/api/2`)
    expect(order).toEqual(['shared', 'route', 'configure', 'once', 'shared', 'route', 'configure'])
  })

  it('answers 502 naming the hook when it throws, and logs the cause once', async () => {
    const a = await startTarget()
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        on: {
          proxyReq: () => {
            throw new Error('no signing key')
          },
        },
      },
    })
    for (let i = 0; i < 2; i++) {
      const res = await json(`${dev.url}/api/x`)
      expect(res.status).toBe(502)
      expect(res.body).toContain("routes['/api'].on.proxyReq threw: no signing key")
    }
    expect(a.seen).toHaveLength(0)
    expect(dev.sink.lines.filter((line) => line.message.includes('no signing key'))).toHaveLength(1)
  })
})

describe('on.proxyRes', () => {
  it('sees the status and headers before they are sent, and may change both', async () => {
    const a = await startTarget()
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        on: {
          async proxyRes(proxyRes, req) {
            await new Promise((resolve) => setTimeout(resolve, 5))
            proxyRes.statusCode = 203
            proxyRes.headers['x-seen-by'] = `hook ${req.method}`
            delete proxyRes.headers['x-target']
          },
        },
      },
    })
    const res = await json(`${dev.url}/api/x`)
    expect(res.status).toBe(203)
    expect(res.headers['x-seen-by']).toBe('hook GET')
    expect(res.headers['x-target']).toBeUndefined()
  })
})

describe('on.error', () => {
  it('runs before the 502, which it may replace by answering itself', async () => {
    const dead = 'http://127.0.0.1:9'
    const errors: string[] = []
    const dev = await startDevServer({
      '/plain': {
        target: dead,
        on: { error: (err) => void errors.push((err as Error & { code?: string }).code ?? err.message) },
      },
      '/own': {
        target: dead,
        on: {
          error(_err, _req, res) {
            ;(res as ServerResponse).writeHead(503, { 'content-type': 'text/plain' }).end('maintenance')
          },
        },
      },
    })
    const plain = await json(`${dev.url}/plain/x`)
    expect(plain.status).toBe(502)
    expect(errors).toHaveLength(1)
    const own = await json(`${dev.url}/own/x`)
    expect(own).toMatchObject({ status: 503, body: 'maintenance' })
  })
})

describe('bypass (Vite)', () => {
  it('serves a returned path from the dev server, answers 404 for false, and proxies otherwise (async too)', async () => {
    const a = await startTarget()
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        async bypass(req, _res, options) {
          if (req.headers.accept?.includes('text/html')) return '/index.html'
          if (req.url === '/api/hidden') return false
          expect(options).toMatchObject({ target: a.url })
          return undefined
        },
      },
    })
    expect(await json(`${dev.url}/api/page`, { headers: { accept: 'text/html' } })).toMatchObject({
      status: 299,
      body: 'dev server /index.html',
    })
    expect((await json(`${dev.url}/api/hidden`)).status).toBe(404)
    expect(JSON.parse((await json(`${dev.url}/api/users`)).body)).toMatchObject({ url: '/users' })
    expect(a.seen.map((seen) => seen.url)).toEqual(['/users'])
  })

  it('is asked for WebSocket upgrades too, without a response', async () => {
    const wsTarget = createServer()
    const wss = new WebSocketServer({ server: wsTarget })
    wss.on('connection', (socket) => socket.send('hello'))
    const target = await listen(wsTarget)
    cleanup.push(async () => {
      for (const client of wss.clients) client.terminate()
      await target.close()
    })
    const seen: unknown[] = []
    const dev = await startDevServer({
      '/socket': {
        target: target.url,
        ws: true,
        bypass(req, res) {
          seen.push(res)
          if (req.url === '/socket/hmr') return '/hmr'
          if (req.url === '/socket/no') return false
          return undefined
        },
      },
    })
    const status = (path: string) =>
      new Promise<number>((resolve) => {
        const client = new WebSocket(`ws://127.0.0.1:${dev.port}${path}`)
        client.on('error', () => undefined)
        client.once('open', () => {
          resolve(101)
          client.terminate()
        })
        client.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      })
    expect(await status('/socket/live')).toBe(101)
    expect(await status('/socket/no')).toBe(404)
    expect(await status('/socket/hmr')).toBe(418)
    expect(seen).toEqual([undefined, undefined, undefined])
  })
})

describe('router', () => {
  it('picks a target per request with a function (sync or async, string or URL); undefined keeps the target', async () => {
    const a = await startTarget('a')
    const b = await startTarget('b')
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        router: async (req) => (req.headers['x-tenant'] === 'b' ? new URL(b.url) : undefined),
      },
    })
    expect(JSON.parse((await json(`${dev.url}/api/x`, { headers: { 'x-tenant': 'b' } })).body).name).toBe('b')
    expect(JSON.parse((await json(`${dev.url}/api/x`)).body).name).toBe('a')
  })

  it('answers 502 naming the router when it returns something that is not a target', async () => {
    const a = await startTarget()
    const dev = await startDevServer({ '/api': { target: a.url, router: () => 'ftp://files.example' } })
    const res = await json(`${dev.url}/api/x`)
    expect(res.status).toBe(502)
    expect(res.body).toContain("routes['/api'].router")
    expect(a.seen).toHaveLength(0)
  })

  it('matches an object by exact host, segment-safe path, or both, in the order written', async () => {
    const a = await startTarget('a')
    const b = await startTarget('b')
    const c = await startTarget('c')
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        router: { 'tenant.localhost/api/v2': c.url, 'tenant.localhost': b.url, '/api/v2': c.url },
      },
    })
    const nameOf = async (path: string, host?: string) =>
      JSON.parse((await json(`${dev.url}${path}`, host ? { headers: { host } } : {})).body).name
    expect(await nameOf('/api/x', 'tenant.localhost')).toBe('b')
    expect(await nameOf('/api/v2/x', 'tenant.localhost')).toBe('c')
    expect(await nameOf('/api/v2/x')).toBe('c')
    expect(await nameOf('/api/v20/x')).toBe('a')
    // Exact host: a name that merely starts like the key is not it.
    expect(await nameOf('/api/x', 'tenant.localhost.evil.example')).toBe('a')
  })
})

describe('pathFilter', () => {
  it('takes the requests it accepts and passes the others on to the dev server', async () => {
    const a = await startTarget()
    const dev = await startDevServer({
      '/fn': {
        target: a.url,
        pathFilter: (path, req) => path.startsWith('/fn/read') && req.method === 'GET',
      },
      '/list': { target: a.url, pathFilter: ['/list/a', '/list/b'] },
    })
    expect((await json(`${dev.url}/fn/read/1`)).status).toBe(200)
    expect((await json(`${dev.url}/fn/read/1`, { method: 'POST', body: 'x' })).body).toBe(
      'dev server /fn/read/1',
    )
    expect((await json(`${dev.url}/fn/write`)).body).toBe('dev server /fn/write')
    expect((await json(`${dev.url}/list/b/x`)).status).toBe(200)
    expect((await json(`${dev.url}/list/bb`)).body).toBe('dev server /list/bb')
  })

  it('refuses a glob at construction, with the function form as the fix', () => {
    expectConfigError(
      () => createCorsDevProxy({ '/api': { target: 'http://h', pathFilter: '/api/**/*.json' } }),
      {
        code: 'INVALID_OPTION',
        option: "routes['/api'].pathFilter",
        contains: [
          'is a glob',
          "{ pathFilter: (path, req) => path.startsWith('/api/v2') && req.method === 'GET' }",
        ],
      },
    )
  })
})

describe('transformResponse', () => {
  it('gets the whole answer decompressed; a returned object is sent as JSON with the head fixed', async () => {
    const a = await startTarget('a')
    const dev = await startDevServer({
      '/api': {
        target: a.url,
        async transformResponse(body, proxyRes) {
          const data = JSON.parse(body.toString()) as Record<string, unknown>
          delete data.secret
          return { ...data, status: proxyRes.statusCode }
        },
      },
    })
    const res = await json(`${dev.url}/api/gzip`, { headers: { 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ name: 'a', status: 200 })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
  })

  it('sends a returned string as it is, and never buffers an event stream', async () => {
    const a = await startTarget('a')
    const dev = await startDevServer({
      '/api': { target: a.url, transformResponse: (body) => body.toString().replace('"a"', '"renamed"') },
    })
    expect(JSON.parse((await json(`${dev.url}/api/x`)).body).name).toBe('renamed')
    const events = await openRequest(`${dev.url}/api/events`)
    const [first] = (await once(events, 'data')) as [Buffer]
    expect(first.toString()).toBe('data: 1\n\n')
    events.destroy()
  })

  it('answers 502 past the size limit, and 502 naming it when it throws', async () => {
    const a = await startTarget()
    const dev = await startDevServer({
      '/big': { target: a.url, transformResponse: (body) => body },
      '/bad': {
        target: a.url,
        transformResponse: () => {
          throw new Error('cannot parse')
        },
      },
    })
    const big = await json(`${dev.url}/big/big`)
    expect(big.status).toBe(502)
    expect(big.body).toContain('too large for transformResponse')
    const bad = await json(`${dev.url}/bad/x`)
    expect(bad.status).toBe(502)
    expect(bad.body).toContain("routes['/bad'].transformResponse threw: cannot parse")
  })
})

describe('on.proxyReqWs', () => {
  it('sees the outgoing handshake and may set its headers', async () => {
    const wsTarget = createServer()
    const wss = new WebSocketServer({ server: wsTarget })
    wss.on('connection', (socket, req) => socket.send(String(req.headers['x-token'])))
    const target = await listen(wsTarget)
    cleanup.push(async () => {
      for (const client of wss.clients) client.terminate()
      await target.close()
    })
    const dev = await startDevServer({
      '/socket': {
        target: target.url,
        ws: true,
        on: { proxyReqWs: async (proxyReq) => proxyReq.setHeader('x-token', 'ws-signed') },
      },
    })
    const client = new WebSocket(`ws://127.0.0.1:${dev.port}/socket`)
    cleanup.push(async () => client.terminate())
    const [message] = (await once(client, 'message')) as [Buffer]
    expect(message.toString()).toBe('ws-signed')
  })
})

describe('mock routes and hooks', () => {
  it('refuses the options only a forwarding route can use', () => {
    expectConfigError(() => createCorsDevProxy({ '/api': { mock: true, router: () => undefined } }), {
      code: 'CONFLICTING_OPTIONS',
      option: "routes['/api'].router",
      contains: ['has no effect on a mock route'],
    })
  })
})
