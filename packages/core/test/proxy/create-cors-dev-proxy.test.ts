import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { stripVTControlCharacters } from 'node:util'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import {
  captureLogSink,
  collectBody,
  listen,
  sendHttp2Request,
  sendRequest,
} from '../../../../test/support/servers.js'
import { CorsDevProxyError } from '../../src/config/errors.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'

/** connect 3 has no types of its own: the part of its app these tests use. */
interface ConnectApp {
  (req: IncomingMessage, res: ServerResponse): void
  use(
    handler: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
  ): ConnectApp
}
const connect = createRequire(import.meta.url)('connect') as () => ConnectApp

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target answering `<method> <url> <sha256 of the body>`. */
async function startTarget() {
  const target = await listen(
    createServer(async (req, res) => {
      const body = await collectBody(req)
      res.end(`${req.method} ${req.url} ${createHash('sha256').update(body).digest('hex')}`)
    }),
  )
  cleanup.push(target.close)
  return target
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

describe('createCorsDevProxy', () => {
  it('throws CorsDevProxyError at construction for a bad configuration', () => {
    expect(() => createCorsDevProxy({ '/api': 'localhost:3000' })).toThrow(CorsDevProxyError)
  })

  it('exposes the resolved routes, longest prefix first, and a named middleware', () => {
    const proxy = createCorsDevProxy({
      '/api': 'http://127.0.0.1:3000',
      '/api/auth': 'http://127.0.0.1:4000',
    })
    cleanup.push(() => proxy.close())
    expect(proxy.routes.map((route) => route.prefix)).toEqual(['/api/auth', '/api'])
    expect(proxy.middleware.name).toBe('corsDevProxyMiddleware')
  })

  it('works as connect middleware: matched prefixes are proxied, everything else goes to next()', async () => {
    const target = await startTarget()
    const proxy = createCorsDevProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(() => proxy.close())
    const app = connect()
      .use(proxy.middleware)
      .use((_req, res) => res.end('dev server'))
    const server = await listen(createServer(app))
    cleanup.push(server.close)
    expect((await sendRequest(`${server.url}/api/users?x=1`)).body.toString()).toBe(
      `GET /users?x=1 ${sha256('')}`,
    )
    expect((await sendRequest(`${server.url}/api2/users`)).body.toString()).toBe('dev server')
    expect((await sendRequest(`${server.url}/index.html`)).body.toString()).toBe('dev server')
  })

  it('works as Express middleware, with a request body', async () => {
    const target = await startTarget()
    const proxy = createCorsDevProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(() => proxy.close())
    const app = express()
    app.use(proxy.middleware)
    app.use((_req, res) => {
      res.status(200).send('express')
    })
    const server = await listen(createServer(app))
    cleanup.push(server.close)
    const res = await sendRequest(`${server.url}/api/items`, { method: 'POST', body: 'payload' })
    expect(res.body.toString()).toBe(`POST /items ${sha256('payload')}`)
    expect((await sendRequest(`${server.url}/elsewhere`)).body.toString()).toBe('express')
  })

  it('answers 404 for an unmatched request when it is the whole server (no next)', async () => {
    const target = await startTarget()
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(proxy.close)
    const res = await sendRequest(`${proxy.url}/apiary`)
    expect(res.status).toBe(404)
    expect(res.body.toString()).toBe('Not Found: no cors-dev-proxy route matches this path\n')
  })

  it.each(['http', 'https', 'h2', 'h2c'] as const)(
    'is the request handler of a %s server, streaming a 4 MiB body both ways',
    async (kind) => {
      const big = Buffer.alloc(4 * 1024 * 1024, 'abcdefgh')
      const target = await startTarget()
      const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' }, kind)
      cleanup.push(proxy.close)
      const res =
        kind === 'h2' || kind === 'h2c'
          ? await sendHttp2Request(`${proxy.url}/api/upload`, { ':method': 'POST' }, big)
          : await sendRequest(`${proxy.url}/api/upload`, { method: 'POST', body: big })
      expect(res.status).toBe(200)
      expect(res.body.toString()).toBe(`POST /upload ${sha256(big)}`)
    },
  )

  it('reports a misbehaving pathRewrite through its own logger, with the repeat count on close', async () => {
    const target = await startTarget()
    const warnings: string[] = []
    const logger = {
      info() {},
      warn: (line: string) => warnings.push(stripVTControlCharacters(line)),
      error() {},
    }
    const rewrite = () => undefined as unknown as string
    const proxy = createCorsDevProxy({ '/api': { target: target.url, pathRewrite: rewrite } }, { logger })
    const server = await listen(createServer((req, res) => proxy.middleware(req, res)))
    cleanup.push(server.close)
    for (let i = 0; i < 3; i++) {
      expect((await sendRequest(`${server.url}/api/x`)).body.toString()).toBe(`GET /api/x ${sha256('')}`)
    }
    await proxy.close()
    const problem =
      "routes['/api'].pathRewrite returned undefined instead of a path; forwarding /api/x unchanged"
    expect(warnings).toEqual([
      `[cors-dev-proxy] ${problem}`,
      `[cors-dev-proxy] ${problem} (repeated 2 times)`,
    ])
  })
})

describe('an upgrade that reaches the middleware', () => {
  it('is answered 501 with one log line showing how to wire proxy.upgrade, never forwarded as a plain GET', async () => {
    let reached = 0
    const target = await listen(
      createServer((_req, res) => {
        reached++
        res.end()
      }),
    )
    cleanup.push(target.close)
    const sink = captureLogSink()
    // No 'upgrade' listener, and none added on the first request (see test/auto-upgrade.test.ts):
    // Node hands the handshake to the request handler.
    const proxy = createCorsDevProxy(
      { '/socket': { target: target.url, ws: true } },
      { logger: sink, subscribeUpgrade: false },
    )
    const server = await listen(createServer((req, res) => proxy.middleware(req, res)))
    cleanup.push(async () => {
      await proxy.close()
      await server.close()
    })
    for (let i = 0; i < 2; i++) {
      const res = await sendRequest(`${server.url}/socket`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      })
      expect(res.status).toBe(501)
    }
    expect(reached).toBe(0)
    const lines = sink.lines.filter((line) => line.message.includes('does not hand upgrades'))
    expect(lines).toHaveLength(1)
    expect(lines[0]?.message).toContain(
      "server.on('upgrade', (req, socket, head) => { if (!proxy.upgrade(req, socket, head)) socket.destroy() })",
    )
    // The fix does not stop at destroying: a framework's own upgrades (its HMR socket) go to it.
    expect(lines[0]?.message).toContain('hand those to it instead of destroying them')
  })
})
