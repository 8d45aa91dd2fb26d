// A router gets, as in http-proxy-middleware 4, a copy of the route's options of its own per
// request: a `target` it assigns there, or `headers` it changes, apply to that request only.
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../../../../test/support/servers.js'
import { type CorsDevProxy, createCorsDevProxy, type Routes } from '../../src/index.js'

interface Seen {
  target: string
  url: string
  headers: IncomingHttpHeaders
}

let a: StartedServer<Server>
let b: StartedServer<Server>
let front: StartedServer<Server>
let wss: WebSocketServer
let proxy: CorsDevProxy
const sink = captureLogSink()
let seen: Seen[] = []
/** The third argument each router call got, and the fourth each pathRewrite call got. */
const routerOptions: unknown[] = []
const rewriteOptions: unknown[] = []

/** A target that records what it received and answers with its name. */
async function startTarget(name: string): Promise<StartedServer<Server>> {
  const server = createServer((req, res) => {
    seen.push({ target: name, url: req.url ?? '', headers: req.headers })
    res.end(name)
  })
  return listen(server)
}

beforeAll(async () => {
  a = await startTarget('a')
  b = await startTarget('b')
  wss = new WebSocketServer({ server: a.server })
  wss.on('connection', (socket, req) => socket.send(String(req.headers['x-tenant'])))
  const routes: Routes = {
    '/api': {
      target: a.url,
      headers: { 'x-static': 'kept', 'x-drop': 'route' },
      router: (req, _res, options) => {
        routerOptions.push(options)
        if (req.headers['x-pick'] === 'header') {
          options.headers['x-tenant'] = 'b'
          delete options.headers['x-drop']
        }
        if (req.headers['x-pick'] === 'target') options.target = b.url
        if (req.headers['x-pick'] === 'bad') options.headers['x-bad'] = 'a\r\nx-injected: 1'
        if (req.headers['x-pick'] === 'ftp') options.target = 'ftp://files.example'
        return undefined
      },
      pathRewrite: (path, _req, _res, options) => {
        rewriteOptions.push(options)
        return path.replace(/^\/api/, '')
      },
    },
    // No target of its own: the router's assignment is the target.
    '/only': {
      router: (_req, _res, options) => {
        options.target = b.url
      },
    },
    '/socket': {
      target: a.url,
      ws: true,
      router: (_req, _res, options) => {
        options.headers['x-tenant'] = 'ws-b'
      },
    },
  }
  proxy = createCorsDevProxy(routes, { logger: sink })
  const server = createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(418).end()))
  server.on('upgrade', (req, socket, head) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  front = await listen(server)
})

afterAll(async () => {
  for (const client of wss?.clients ?? []) client.terminate()
  await proxy?.close()
  await front?.close()
  await a?.close()
  await b?.close()
})

beforeEach(() => {
  seen = []
  routerOptions.length = 0
  rewriteOptions.length = 0
})

describe('a router’s per-request options', () => {
  it('headers it sets or removes there go with that request only', async () => {
    await sendRequest(`${front.url}/api/one`, { headers: { 'x-pick': 'header' } })
    await sendRequest(`${front.url}/api/two`)
    expect(
      seen.map(({ url, headers }) => [url, headers['x-tenant'], headers['x-static'], headers['x-drop']]),
    ).toEqual([
      ['/one', 'b', 'kept', undefined],
      ['/two', undefined, 'kept', 'route'],
    ])
  })

  it('a target it assigns there is the target of that request only', async () => {
    expect(
      (await sendRequest(`${front.url}/api/x`, { headers: { 'x-pick': 'target' } })).body.toString(),
    ).toBe('b')
    expect((await sendRequest(`${front.url}/api/x`)).body.toString()).toBe('a')
    expect(seen.map(({ target }) => target)).toEqual(['b', 'a'])
  })

  it('is a fresh copy per request, also handed to pathRewrite, never the route itself', async () => {
    await sendRequest(`${front.url}/api/1`)
    await sendRequest(`${front.url}/api/2`)
    const [first, second] = routerOptions as Array<{ headers: object; target: string }>
    expect(first).not.toBe(second)
    expect(first?.headers).not.toBe(second?.headers)
    expect(Object.isFrozen(first)).toBe(false)
    expect(first).toMatchObject({ target: a.url, headers: { 'x-static': 'kept', 'x-drop': 'route' } })
    expect(rewriteOptions).toEqual(routerOptions)
    expect(rewriteOptions[0]).toBe(first)
  })

  it('gives a route without a target the one the router assigned', async () => {
    const res = await sendRequest(`${front.url}/only/x`)
    expect(res.body.toString()).toBe('b')
    expect(seen).toMatchObject([{ target: 'b', url: '/x' }])
  })

  it('a header value that cannot be sent is a 502 naming the router, nothing sent', async () => {
    const res = await sendRequest(`${front.url}/api/x`, { headers: { 'x-pick': 'bad' } })
    expect(res.status).toBe(502)
    expect(res.body.toString()).toContain("routes['/api'].router: set options.headers['x-bad'] contains")
    expect(seen).toEqual([])
    expect((await sendRequest(`${front.url}/api/x`)).status).toBe(200)
  })

  it('a target assigned there that is no http(s) URL is a 502 naming the router, nothing sent', async () => {
    const res = await sendRequest(`${front.url}/api/x`, { headers: { 'x-pick': 'ftp' } })
    expect(res.status).toBe(502)
    expect(res.body.toString()).toContain(
      "routes['/api'].router: set options.target, which is 'ftp://files.example': ftp: is not supported",
    )
    expect(seen).toEqual([])
  })

  it('applies to a WebSocket handshake too', async () => {
    const client = new WebSocket(`ws://127.0.0.1:${front.port}/socket/live`)
    const [message] = (await once(client, 'message')) as [Buffer]
    client.terminate()
    expect(message.toString()).toBe('ws-b')
  })
})
