// One preparation of the outgoing request (forward/prepare-request.ts): the same route sent
// as an HTTP request, a Node WebSocket upgrade and through the Fetch handler's `webSocket`
// bridge reaches the target at the same path with the same forwarded headers.
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { listen } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { bridgeHeaders, handshakeHeaders } from '../../src/forward/handshake-headers.js'
import { HookFailure } from '../../src/forward/hook-runner.js'
import { createRequestPreparer, prepareRequest } from '../../src/forward/prepare-request.js'
import { buildUpstreamHeaders } from '../../src/forward/request-headers.js'
import { PathRewriteFailure } from '../../src/http/rewrite-path.js'
import type { ProxyRequest, RouteOptions, Routes } from '../../src/index.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'
import { forwardRoute } from '../support/resolved.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** What the target saw of one request: its path and headers. */
interface Seen {
  url: string | undefined
  headers: IncomingHttpHeaders
}

/** A target that answers HTTP requests and accepts WebSockets, recording what each brought. */
async function recordingTarget() {
  const seen: Seen[] = []
  const arrived: Array<() => void> = []
  const record = (req: IncomingMessage) => {
    seen.push({ url: req.url, headers: req.headers })
    arrived.shift()?.()
  }
  const server = createServer((req, res) => {
    record(req)
    res.end('ok')
  })
  const wss = new WebSocketServer({ server })
  wss.on('connection', (_socket, req) => record(req))
  const started = await listen(server)
  cleanup.push(async () => {
    for (const client of wss.clients) client.terminate()
    wss.close()
    await started.close()
  })
  /**
   * The next request the target records, or a failure naming `what` after 20 s (a margin for a
   * loaded machine; a request sent elsewhere, to the route's own target, never arrives).
   */
  const next = (what: string) =>
    new Promise<Seen>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error(`the target never saw ${what}`)), 20_000)
      arrived.push(() => {
        clearTimeout(late)
        resolve(seen.at(-1) as Seen)
      })
    })
  return { url: started.url, next }
}

/** The route under test: every per-request option that shapes the outgoing request. */
function routesTo(target: string): Routes {
  return {
    '/api': {
      // Never reached: the router picks the recording target.
      target: 'http://127.0.0.1:2',
      router: (_req, _res, options) => {
        if (options) options.headers = { ...options.headers, 'x-routed': 'by the router' }
        return target
      },
      pathRewrite: { '^/api': '/v1' },
      headers: { 'x-route': 'fixed' },
      changeOrigin: true,
      xfwd: true,
      ws: true,
    },
  }
}

/** What the page sends, the same on every front end; Host is the dev server's as the browser saw it. */
const PAGE_HEADERS = {
  host: 'localhost:5173',
  origin: 'http://localhost:5173',
  cookie: 'sid=1',
  'x-client': 'page',
}

/** The Node front end: `createCorsDevProxy`'s middleware and upgrade listener on one server. */
async function nodeFront(routes: Routes) {
  const proxy = createCorsDevProxy(routes, { log: 'silent' })
  const server = createServer((req, res) => proxy.middleware(req, res))
  server.on('upgrade', (req, socket, head) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  const started = await listen(server)
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return started
}

/** The Fetch front end on Node, as @hono/node-ws carries its upgrades: `ws` accepts, the bridge relays. */
async function fetchFront(routes: Routes) {
  const proxy = createFetchHandler(routes, { log: 'silent' })
  const wss = new WebSocketServer({ noServer: true })
  const server = createServer((_req, res) => res.end())
  server.on('upgrade', async (req: IncomingMessage, socket, head) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) headers.set(name, String(value))
    const webRequest = new Request(`http://${req.headers.host}${req.url}`, { headers })
    const bridge = await proxy.webSocket(webRequest, { remoteAddress: req.socket.remoteAddress })
    if (bridge === undefined || bridge instanceof Response) {
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      bridge.open({ send: (data) => client.send(data), close: (code, reason) => client.close(code, reason) })
      client.on('message', (data) => bridge.message(data.toString()))
      client.on('close', (code) => bridge.close(code))
    })
  })
  const started = await listen(server)
  cleanup.push(async () => {
    for (const client of wss.clients) client.terminate()
    wss.close()
    await proxy.close()
    await started.close()
  })
  return started
}

/** A GET through the front end at `port`, with the page's headers. */
async function get(port: number, path: string): Promise<void> {
  const req = request({ host: '127.0.0.1', port, path, headers: PAGE_HEADERS, agent: false })
  req.end()
  const [res] = (await once(req, 'response')) as [IncomingMessage]
  res.resume()
  await once(res, 'end')
}

/** A WebSocket opened through the front end at `port`, with the page's headers. */
function openSocket(port: number, path: string): void {
  const client = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: PAGE_HEADERS })
  client.on('error', () => undefined)
  cleanup.push(async () => client.terminate())
}

/**
 * Fields each client writes for itself (its handshake, its own defaults), left out of the
 * comparison: the rest is what the proxy prepared.
 */
const CLIENTS_OWN = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
  'pragma',
  'cache-control',
])

const prepared = ({ url, headers }: Seen) => ({
  url,
  headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !CLIENTS_OWN.has(name))),
})

describe('the outgoing request, prepared once', () => {
  it('reaches the target alike over HTTP, a Node WebSocket upgrade and the Fetch bridge', async () => {
    const target = await recordingTarget()
    const routes = routesTo(target.url)
    const node = await nodeFront(routes)
    const fetchOne = await fetchFront(routes)

    const overHttp = target.next('the HTTP request')
    await get(node.port, '/api/things?x=1')
    const http = prepared(await overHttp)
    const overUpgrade = target.next('the Node upgrade')
    openSocket(node.port, '/api/things?x=1')
    const upgrade = prepared(await overUpgrade)
    const overBridge = target.next("the Fetch bridge's handshake")
    openSocket(fetchOne.port, '/api/things?x=1')
    const bridge = prepared(await overBridge)

    const targetHost = new URL(target.url).host
    expect(http).toEqual({
      url: '/v1/things?x=1',
      headers: {
        host: targetHost,
        origin: `http://${targetHost}`,
        cookie: 'sid=1',
        'x-client': 'page',
        'x-route': 'fixed',
        'x-routed': 'by the router',
        'x-forwarded-for': '127.0.0.1',
        'x-real-ip': '127.0.0.1',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'localhost:5173',
        'x-forwarded-port': '5173',
      },
    })
    expect(upgrade).toEqual(http)
    expect(bridge).toEqual(http)
  })
})

/** A route's preparer, with the given header rules. */
function preparerOf(options: RouteOptions, headersFor = buildUpstreamHeaders) {
  const route = forwardRoute(
    resolveOptions({ '/api': { target: 'http://127.0.0.1:3000', ...options } }).routes[0],
  )
  return createRequestPreparer(route, () => undefined, headersFor)
}

const page = {
  url: '/api/users',
  method: 'GET',
  headers: { host: 'localhost:5173', upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'k' },
  socket: { remoteAddress: '127.0.0.1', encrypted: false },
} as unknown as ProxyRequest

describe('prepareRequest', () => {
  it('prepares the common route at once, without a promise', () => {
    const prepared = prepareRequest(preparerOf({}), page, undefined, '/api/users')
    expect(prepared).not.toBeInstanceOf(Promise)
    expect(prepared).toMatchObject({ path: '/users', headers: { host: '127.0.0.1:3000' } })
  })

  it('runs the router, then pathRewrite with the options the router changed, then the headers', async () => {
    const seen: unknown[] = []
    const preparer = preparerOf({
      router: (_req, _res, options) => {
        if (options) options.headers = { 'x-tenant': 'b' }
        return 'http://127.0.0.1:3002/base'
      },
      pathRewrite: (path, _req, _res, options) => {
        seen.push((options as RouteOptions).headers)
        return path.replace('/api', '')
      },
    })
    const prepared = await prepareRequest(preparer, page, undefined, '/api/users')
    expect(prepared.target.href).toBe('http://127.0.0.1:3002/base')
    expect(prepared.path).toBe('/base/users')
    expect(prepared.headers).toMatchObject({ host: '127.0.0.1:3002', 'x-tenant': 'b' })
    expect(seen).toEqual([{ 'x-tenant': 'b' }])
  })

  it('names the router or the pathRewrite that failed', async () => {
    const router = preparerOf({
      router: () => {
        throw new Error('no tenant')
      },
    })
    expect(() => prepareRequest(router, page, undefined, '/api/users')).toThrow(HookFailure)
    const rejecting = preparerOf({ router: async () => Promise.reject(new Error('no tenant')) })
    await expect(prepareRequest(rejecting, page, undefined, '/api/users')).rejects.toThrow(
      "routes['/api'].router threw: no tenant",
    )
    const rewrite = preparerOf({
      pathRewrite: () => {
        throw new Error('bad path')
      },
    })
    expect(() => prepareRequest(rewrite, page, undefined, '/api/users')).toThrow(PathRewriteFailure)
  })

  it("keeps a Node handshake's own fields, and leaves them to the client on the Fetch bridge", () => {
    const node = prepareRequest(preparerOf({}, handshakeHeaders), page, undefined, '/api/users')
    expect(node).toMatchObject({
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'k' },
    })
    const bridged = prepareRequest(preparerOf({}, bridgeHeaders), page, undefined, '/api/users')
    expect(Object.keys((bridged as { headers: object }).headers)).not.toContain('sec-websocket-key')
    expect(Object.keys((bridged as { headers: object }).headers)).not.toContain('connection')
  })
})
