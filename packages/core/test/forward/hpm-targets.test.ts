import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { captureLogSink, collectBody, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import {
  type CorsDevProxyOptions,
  createCorsDevProxy,
  type ProxyRequest,
  type Routes,
} from '../../src/index.js'
import { describeRoutes } from '../../src/log/describe-routes.js'

// What http-proxy-middleware (v3 and v4, README "router" and "http-proxy options") and Vite's
// `server.proxy` accept for where a request goes, working here: target objects, a router that
// answers one, a route with only a router or only a bypass, `auth`, a Unix socket, `0.0.0.0`.

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

interface Seen {
  url: string
  headers: IncomingMessage['headers']
}

function answering(name: string, seen: Seen[]) {
  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    await collectBody(req)
    seen.push({ url: req.url ?? '', headers: req.headers })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ name, url: req.url }))
  })
}

async function startTarget(name: string) {
  const seen: Seen[] = []
  const started = await listen(answering(name, seen))
  cleanup.push(started.close)
  return { url: started.url, port: started.port, seen }
}

async function startDevServer(routes: Routes, options: CorsDevProxyOptions = {}) {
  const sink = captureLogSink()
  const proxy = createCorsDevProxy(routes, { logger: sink, ...options })
  const app = express()
  app.use((req, res, next) => proxy.middleware(req, res, next))
  app.use((req, res) => res.status(299).send(`dev server ${req.url}`))
  const started = await listen(createServer(app))
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return { url: started.url, sink }
}

describe('router (http-proxy-middleware README, "router")', () => {
  it('takes a target object { protocol, host, port } from a router function', async () => {
    const b = await startTarget('b')
    const a = await startTarget('a')
    const dev = await startDevServer({
      '/api': { target: a.url, router: () => ({ protocol: 'http:', host: '127.0.0.1', port: b.port }) },
    })
    const res = await sendRequest(`${dev.url}/api/users`)
    expect(JSON.parse(res.body.toString())).toEqual({ name: 'b', url: '/users' })
    expect(a.seen).toEqual([])
  })

  it('takes target objects as the values of a router table', async () => {
    const b = await startTarget('b')
    const dev = await startDevServer({
      '/api': { target: 'http://127.0.0.1:9', router: { '/api/v2': { host: '127.0.0.1', port: b.port } } },
    })
    const res = await sendRequest(`${dev.url}/api/v2/x`)
    expect(JSON.parse(res.body.toString()).name).toBe('b')
  })

  it('calls router(req, res, options) and pathRewrite(path, req, res, options), as version 4 does', async () => {
    const a = await startTarget('a')
    const calls: unknown[][] = []
    const route = {
      router: (...args: unknown[]) => {
        calls.push(['router', ...args])
        return a.url
      },
      pathRewrite: (path: string, ...rest: unknown[]) => {
        calls.push(['pathRewrite', path, ...rest])
        return path.replace(/^\/api/, '/v1')
      },
    }
    const dev = await startDevServer({ '/api': route })
    await sendRequest(`${dev.url}/api/users?x=1`)
    expect(calls).toHaveLength(2)
    const [routerCall, rewriteCall] = calls as [unknown[], unknown[]]
    expect(routerCall[0]).toBe('router')
    expect((routerCall[1] as IncomingMessage).url).toBe('/api/users?x=1')
    expect(typeof (routerCall[2] as ServerResponse).setHeader).toBe('function')
    expect(routerCall[3]).toMatchObject({ router: route.router, pathRewrite: route.pathRewrite })
    expect(rewriteCall[1]).toBe('/api/users?x=1')
    expect(rewriteCall[2]).toBe(routerCall[1])
    expect(rewriteCall[3]).toBe(routerCall[2])
    expect(rewriteCall[4]).toBe(routerCall[3])
    expect(a.seen[0]?.url).toBe('/v1/users?x=1')
  })

  it('calls router(req, undefined, options) for a WebSocket upgrade, as version 4 does', async () => {
    const server = createServer()
    const wss = new WebSocketServer({ server })
    wss.on('connection', (socket) => socket.send('routed'))
    const target = await listen(server)
    cleanup.push(async () => {
      for (const client of wss.clients) client.terminate()
      wss.close()
      await target.close()
    })
    const calls: unknown[][] = []
    const proxy = createCorsDevProxy(
      {
        '/live': {
          ws: true,
          router: (...args: unknown[]) => {
            calls.push(args)
            return target.url
          },
        },
      },
      { logger: captureLogSink() },
    )
    const dev = await listen(createServer((req, res) => proxy.middleware(req, res)))
    dev.server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
    cleanup.push(async () => {
      await proxy.close()
      await dev.close()
    })
    const socket = new WebSocket(`${dev.url.replace('http', 'ws')}/live`)
    const [message] = await once(socket, 'message')
    socket.close()
    expect(String(message)).toBe('routed')
    expect(calls).toHaveLength(1)
    const [req, res, options] = calls[0] ?? []
    expect((req as IncomingMessage).url).toBe('/live')
    expect(res).toBeUndefined()
    expect(options).toMatchObject({ ws: true })
  })

  it('serves a route with a router and no target; no target found is a 502 naming `target`', async () => {
    const a = await startTarget('a')
    const dev = await startDevServer({
      '/api': { router: (req: ProxyRequest) => (req.headers['x-tenant'] === 'a' ? a.url : undefined) },
    })
    const routed = await sendRequest(`${dev.url}/api/x`, { headers: { 'x-tenant': 'a' } })
    expect(JSON.parse(routed.body.toString())).toEqual({ name: 'a', url: '/x' })
    const lost = await sendRequest(`${dev.url}/api/x`)
    expect(lost.status).toBe(502)
    expect(lost.body.toString()).toContain("routes['/api'].target")
    expect(lost.body.toString()).toContain('the router returned no target')
  })
})

describe("Vite server.proxy's bypass without a target", () => {
  it('is accepted: bypass serves from the dev server, a request it lets through is a 502', async () => {
    const dev = await startDevServer({
      '/app': { bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) },
    })
    const page = await sendRequest(`${dev.url}/app/deep/link`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(299)
    expect(page.body.toString()).toBe('dev server /index.html')
    const through = await sendRequest(`${dev.url}/app/data.json`)
    expect(through.status).toBe(502)
    expect(through.body.toString()).toContain('no target')
  })
})

describe('auth (http-proxy: "Basic authentication i.e. \'user:password\'")', () => {
  it('sends Basic Authorization upstream, unless the request has its own', async () => {
    const a = await startTarget('a')
    const dev = await startDevServer({ '/api': { target: a.url, auth: 'user:pa:ss' } })
    await sendRequest(`${dev.url}/api/x`)
    await sendRequest(`${dev.url}/api/x`, { headers: { authorization: 'Bearer mine' } })
    expect(a.seen.map((seen) => seen.headers.authorization)).toEqual([
      `Basic ${Buffer.from('user:pa:ss').toString('base64')}`,
      'Bearer mine',
    ])
  })
})

describe('targets http-proxy takes that a URL string alone does not say', () => {
  it('forwards to a Unix socket: target { socketPath }', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'cdp-sock-'))
    cleanup.push(() => rmSync(directory, { recursive: true, force: true }))
    const socketPath = join(directory, 'api.sock')
    const seen: Seen[] = []
    const server = answering('unix', seen)
    await new Promise<void>((resolve) => server.listen(socketPath, resolve))
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const dev = await startDevServer({ '/api': { target: { socketPath } } })
    const res = await sendRequest(`${dev.url}/api/users`)
    expect(JSON.parse(res.body.toString())).toEqual({ name: 'unix', url: '/users' })
    expect(seen[0]?.headers.host).toBe('localhost')
    expect(describeRoutes(resolveOptions({ '/api': { target: { socketPath } } }).routes)).toBe(
      `routes: /api → http://localhost via ${socketPath}`,
    )
  })

  it('reaches a target written on the unspecified address (http://0.0.0.0:port) on loopback', async () => {
    const a = await startTarget('a')
    const port = new URL(a.url).port
    const dev = await startDevServer({ '/api': `http://0.0.0.0:${port}` })
    const res = await sendRequest(`${dev.url}/api/x`)
    expect(JSON.parse(res.body.toString()).name).toBe('a')
    expect(a.seen[0]?.headers.host).toBe(`127.0.0.1:${port}`)
  })
})
