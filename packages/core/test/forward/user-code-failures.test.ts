// A failure of the user's code ends the exchange the same way wherever it happens: a
// `pathRewrite` that throws or rejects (HTTP, WebSocket, mock route), a router that throws on
// an upgrade, a hook that calls `proxyReq.destroy(error)` (http-proxy-middleware's
// `fixRequestBody` does on a multipart value holding CR/LF). Nothing reaches the target, the
// answer names the option, the server keeps serving.
import { once } from 'node:events'
import type { ClientRequest } from 'node:http'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { fixRequestBody } from 'http-proxy-middleware'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import {
  captureLogSink,
  collectBody,
  listen,
  type StartedServer,
  sendRequest,
} from '../../../../test/support/servers.js'
import type { OutgoingProxyRequest } from '../../src/config/hook-options.js'
import { type CorsDevProxy, createCorsDevProxy, type ProxyRequest, type Routes } from '../../src/index.js'

let target: StartedServer<Server>
let wsTarget: StartedServer<Server>
let wss: WebSocketServer
let front: StartedServer<Server>
let proxy: CorsDevProxy
const sink = captureLogSink()
/** Every request and handshake the targets received. */
let received: string[] = []
/** Hooks that ran after one that destroyed the request. */
const later: string[] = []

/** What a multipart parser leaves: the stream read, the fields in `req.body` (here from `x-fields`). */
async function parse(req: IncomingMessage): Promise<void> {
  await collectBody(req)
  const parsed = req as IncomingMessage & { body?: unknown; _body?: boolean }
  parsed._body = true
  parsed.body = JSON.parse(req.headers['x-fields'] as string)
}

const boom = (): never => {
  throw new Error('no tenant')
}

beforeAll(async () => {
  target = await listen(
    createServer(async (req, res) => {
      received.push(`${req.method} ${req.url} ${(await collectBody(req)).toString()}`)
      res.end('target')
    }),
  )
  const wsServer = createServer()
  wss = new WebSocketServer({ server: wsServer })
  wss.on('connection', (socket, req) => {
    received.push(`WS ${req.url}`)
    socket.send('hello')
  })
  wsTarget = await listen(wsServer)
  const routes: Routes = {
    '/sync': { target: target.url, pathRewrite: boom },
    '/async': {
      target: target.url,
      pathRewrite: async () => {
        await new Promise((resolve) => setImmediate(resolve))
        return boom()
      },
    },
    // The same failure on the slower path (router and hooks), and on a mock route.
    '/routed': { target: target.url, router: () => undefined, pathRewrite: boom },
    '/mocked': { mock: true, pathRewrite: boom },
    '/ws-rewrite': { target: wsTarget.url, ws: true, pathRewrite: boom },
    '/ws-router': { target: wsTarget.url, ws: true, router: boom },
    '/destroy': {
      target: target.url,
      on: { proxyReq: (proxyReq) => void proxyReq.destroy(new Error('bad value')) },
      configure: (proxy) => proxy.on('proxyReq', () => void later.push('ran')),
    },
    '/destroy-async': {
      target: target.url,
      on: {
        proxyReq: async (proxyReq) => {
          await new Promise((resolve) => setImmediate(resolve))
          proxyReq.destroy(Object.assign(new Error('quota exceeded'), { status: 429 }))
        },
      },
    },
    '/fix': {
      target: target.url,
      on: {
        // http-proxy-middleware's own, as users import it (it types proxyReq as a ClientRequest).
        proxyReq: (proxyReq: OutgoingProxyRequest, req: ProxyRequest) =>
          fixRequestBody(proxyReq as unknown as ClientRequest, req as IncomingMessage),
      },
    },
    '/ws-destroy': {
      target: wsTarget.url,
      ws: true,
      on: { proxyReqWs: (proxyReq) => proxyReq.destroy(new Error('no socket for you')) },
    },
  }
  proxy = createCorsDevProxy(routes, { logger: sink })
  const server = createServer(async (req, res) => {
    if (req.headers['x-fields'] !== undefined) await parse(req)
    proxy.middleware(req, res, () => res.writeHead(418).end())
  })
  server.on('upgrade', (req, socket, head) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  front = await listen(server)
})

afterAll(async () => {
  for (const client of wss?.clients ?? []) client.terminate()
  await proxy?.close()
  await front?.close()
  await wsTarget?.close()
  await target?.close()
})

beforeEach(() => {
  received = []
})

/** The answer to a WebSocket handshake the proxy refused: status and body. */
async function refusedHandshake(path: string): Promise<{ status: number; body: string }> {
  const client = new WebSocket(`ws://127.0.0.1:${front.port}${path}`)
  // The refused handshake ends the socket: ws reports that as an error of its own.
  client.on('error', () => undefined)
  const [, res] = (await once(client, 'unexpected-response')) as [unknown, IncomingMessage]
  return { status: res.statusCode ?? 0, body: (await collectBody(res)).toString() }
}

describe('a pathRewrite function that throws', () => {
  it.each([
    ['throws', '/sync'],
    ['rejects', '/async'],
    ['throws on a route with a router', '/routed'],
    ['throws on a mock route', '/mocked'],
  ])('%s: 502 naming it, nothing sent, logged once', async (_name, prefix) => {
    for (let i = 0; i < 2; i++) {
      const res = await sendRequest(`${front.url}${prefix}/users`)
      expect(res.status).toBe(502)
      expect(res.body.toString()).toContain(`routes['${prefix}'].pathRewrite threw: no tenant`)
    }
    expect(received).toEqual([])
    const logged = sink.lines.filter((line) => line.message.includes(`routes['${prefix}'].pathRewrite threw`))
    expect(logged).toHaveLength(1)
    expect(logged[0]?.message).toContain(`502 GET ${prefix}/users`)
  })

  it('answers JSON naming it when the client asks for JSON', async () => {
    const res = await sendRequest(`${front.url}/sync/users`, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(502)
    expect(JSON.parse(res.body.toString())).toMatchObject({
      error: 'Bad Gateway',
      cause: "routes['/sync'].pathRewrite threw",
      hint: 'no tenant',
    })
  })

  it('on a WebSocket upgrade: 502 naming it, no handshake reaches the target', async () => {
    const refused = await refusedHandshake('/ws-rewrite/live')
    expect(refused).toEqual({ status: 502, body: "routes['/ws-rewrite'].pathRewrite threw: no tenant\n" })
    expect(received).toEqual([])
  })

  it('a router that throws on a WebSocket upgrade is named the same way', async () => {
    const refused = await refusedHandshake('/ws-router/live')
    expect(refused).toEqual({ status: 502, body: "routes['/ws-router'].router threw: no tenant\n" })
    expect(received).toEqual([])
  })
})

describe('proxyReq.destroy(error) in a hook', () => {
  it('ends the exchange: 502 with the message, nothing sent, the later hooks skipped', async () => {
    const res = await sendRequest(`${front.url}/destroy/items`, { method: 'POST', body: 'payload' })
    expect(res.status).toBe(502)
    expect(res.body.toString()).toBe("routes['/destroy'].on.proxyReq destroyed the request: bad value\n")
    expect(received).toEqual([])
    expect(later).toEqual([])
    expect(sink.text()).toContain(
      `502 POST /destroy/items → ${target.url}: routes['/destroy'].on.proxyReq destroyed the request: bad value`,
    )
    // The server is still up, and the route still refuses the next request the same way.
    expect((await sendRequest(`${front.url}/destroy/again`)).status).toBe(502)
  })

  it('from an async hook, with an error that blames the request (a 4xx status): 400', async () => {
    const res = await sendRequest(`${front.url}/destroy-async/items`)
    expect(res.status).toBe(400)
    expect(res.body.toString()).toContain('destroyed the request: quota exceeded')
    expect(received).toEqual([])
  })

  it('http-proxy-middleware’s fixRequestBody refusing a CR/LF multipart value: 400, as hpm answers', async () => {
    const boundary = '----cdpBoundary7'
    const res = await sendRequest(`${front.url}/fix/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-fields': JSON.stringify({ title: 'two\r\nlines' }),
      },
      body: 'read by the parser',
    })
    expect(res.status).toBe(400)
    expect(res.body.toString()).toContain('invalid multipart field value for "title"')
    expect(received).toEqual([])
  })

  it('fixRequestBody with a value it accepts still sends the body it wrote', async () => {
    const boundary = '----cdpBoundary7'
    const res = await sendRequest(`${front.url}/fix/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-fields': JSON.stringify({ title: 'one line' }),
      },
      body: 'read by the parser',
    })
    expect(res.status).toBe(200)
    expect(received).toEqual([
      `POST /upload --${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\none line\r\n`,
    ])
  })

  it('in a proxyReqWs hook: the handshake is refused with the message, never sent', async () => {
    const refused = await refusedHandshake('/ws-destroy/live')
    expect(refused).toEqual({
      status: 502,
      body: "routes['/ws-destroy'].on.proxyReqWs destroyed the request: no socket for you\n",
    })
    expect(received).toEqual([])
  })
})
