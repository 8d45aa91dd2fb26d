import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { Agent, createServer, get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { CorsDevProxyError } from '../../src/config/errors.js'
import { undiciDispatches } from '../../src/fetch/fetch-dispatcher.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'
import { type Front, serveThrough, startTarget } from './fetch-front.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

async function target(handler: Parameters<typeof startTarget>[0]) {
  const started = await startTarget(handler)
  cleanup.push(started.close)
  return started
}

async function proxy(
  front: Front,
  ...args: [Parameters<typeof serveThrough>[1], Parameters<typeof serveThrough>[2]?]
) {
  const served = await serveThrough(front, ...args)
  cleanup.push(served.close)
  return served
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

// The same table on both front ends: the Fetch one must answer as the Node one does.
describe.each<Front>(['node', 'fetch', 'fetch over fetch'])('through the %s front end', (front) => {
  it('streams CRUD bodies both ways, an 8 MB upload echoed intact', async () => {
    const backend = await target((req, res) => {
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/octet-stream',
        'x-method': req.method,
      })
      req.pipe(res)
    })
    const served = await proxy(front, { '/api': backend.url }, { log: 'silent' })
    const upload = randomBytes(8 * 1024 * 1024)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${served.url}/api/items/1`, { method, body: upload })
      expect(response.headers.get('x-method')).toBe(method)
      expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(upload))
    }
    expect(served.dispatchers() > 0).toBe(front === 'fetch over fetch')
    const got = await fetch(`${served.url}/api/items/1`)
    expect(got.status).toBe(200)
    expect(await got.text()).toBe('')
  })

  it("answers a cors route's preflight and adds its headers to the answer", async () => {
    const backend = await target((_req, res) => res.end('ok'))
    const served = await proxy(front, { '/api': { target: backend.url, cors: true } }, { log: 'silent' })
    const preflight = await fetch(`${served.url}/api/x`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT')
    const answer = await fetch(`${served.url}/api/x`, { headers: { origin: 'http://localhost:5173' } })
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(await answer.text()).toBe('ok')
  })

  it('answers a mock route and JSONP from the mock backend', async () => {
    const served = await proxy(front, { '/mock': { mock: true } }, { log: 'silent' })
    const echoed = (await (
      await fetch(`${served.url}/mock/items?x=1`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as Record<string, unknown>
    expect(echoed).toMatchObject({ method: 'POST', body: { a: 1 } })
    const jsonp = await fetch(`${served.url}/mock/items?callback=cb`)
    expect(await jsonp.text()).toMatch(/cb\(/)
  })

  it('wraps a JSON answer on a jsonp route', async () => {
    const backend = await target((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":1}'),
    )
    const served = await proxy(front, { '/api': { target: backend.url, jsonp: true } }, { log: 'silent' })
    const answer = await fetch(`${served.url}/api/n?callback=done`)
    expect(answer.headers.get('content-type')).toMatch(/javascript/)
    expect(await answer.text()).toMatch(/done\(\{"n":1\}\)/)
  })

  it("rewrites a redirect's Location and a Set-Cookie Domain", async () => {
    const backend = await target((_req, res) => {
      res.writeHead(302, {
        location: `${backendUrl}/next`,
        'set-cookie': ['a=1; Domain=backend.test; Path=/', 'b=2; Path=/'],
      })
      res.end()
    })
    const backendUrl = backend.url
    const served = await proxy(
      front,
      { '/api': { target: backend.url, changeOrigin: true } },
      { log: 'silent' },
    )
    const answer = await fetch(`${served.url}/api/start`, { redirect: 'manual' })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe(`${served.url}/api/next`)
    expect(answer.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
  })

  it("delivers an event stream's first event before the stream ends", async () => {
    let finish: (() => void) | undefined
    const backend = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: first\n\n')
      finish = () => res.end('data: last\n\n')
    })
    const served = await proxy(front, { '/api': backend.url }, { log: 'silent' })
    const [answer] = (await once(get(`${served.url}/api/events`), 'response')) as [IncomingMessage]
    const [first] = (await once(answer, 'data')) as [Buffer]
    expect(first.toString()).toBe('data: first\n\n')
    finish?.()
    let rest = ''
    for await (const chunk of answer) rest += String(chunk)
    expect(rest).toBe('data: last\n\n')
  })

  it('answers a dead backend 502 with one log line', async () => {
    const dead = await refusedUrl()
    const served = await proxy(front, { '/api': dead })
    const answer = await fetch(`${served.url}/api/x`)
    expect(answer.status).toBe(502)
    const body = await answer.text()
    expect(body).toMatch(/ECONNREFUSED|refused/)
    expect(served.lines.filter((line) => /502|refused/.test(line))).toHaveLength(1)
    deadAnswers[front] = {
      body: body.replaceAll(dead, 'TARGET'),
      // The failure's line: the routes line before it differs only in when it is printed.
      line: served.lines
        .filter((line) => !line.includes('routes:'))
        .join('\n')
        .replaceAll(dead, 'TARGET'),
    }
  })

  it("answers 504 when a slow target outlasts the route's timeout", async () => {
    const backend = await target(() => {})
    const served = await proxy(front, { '/api': { target: backend.url, timeout: 200 } }, { log: 'silent' })
    const answer = await fetch(`${served.url}/api/slow`)
    expect(answer.status).toBe(504)
  })

  it('aborts the upstream request when the client cancels mid-body', async () => {
    let upstreamClosed: Promise<unknown> | undefined
    const backend = await target((_req, res) => {
      upstreamClosed = once(res, 'close')
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      // An endless body, sent as fast as the proxy takes it: the relay is paused when the client leaves.
      const more = (): void => {
        while (!res.destroyed && res.write(Buffer.alloc(64 * 1024)));
      }
      res.on('drain', more)
      more()
    })
    const served = await proxy(front, { '/api': backend.url }, { log: 'silent' })
    const controller = new AbortController()
    const answer = await fetch(`${served.url}/api/big`, { signal: controller.signal })
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader()
    expect((await reader.read()).value?.byteLength).toBeGreaterThan(0)
    controller.abort()
    await upstreamClosed
    expect(upstreamClosed).toBeDefined()
  })

  it('breaks off the answer when the target dies mid-body, never ending it cleanly', async () => {
    const backend = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.write(Buffer.alloc(1000), () => res.destroy())
    })
    const served = await proxy(front, { '/api': backend.url }, { log: 'silent' })
    const answer = await fetch(`${served.url}/api/short`)
    expect(answer.status).toBe(200)
    await expect(answer.arrayBuffer()).rejects.toThrow()
  })

  it("runs router, on.proxyRes and transformResponse on the engine's view of the exchange", async () => {
    const backend = await target((req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`),
    )
    const served = await proxy(
      front,
      {
        '/api': {
          target: 'http://127.0.0.1:9',
          router: (req) => (req.headers['x-tenant'] === 'a' ? backend.url : undefined),
          on: {
            proxyRes: (proxyRes, req) => {
              proxyRes.headers['x-seen'] = `${req.method} ${req.url}`
            },
          },
          transformResponse: (body) => body.toString().toUpperCase(),
        },
      },
      { log: 'silent' },
    )
    const answer = await fetch(`${served.url}/api/x?q=1`, { headers: { 'x-tenant': 'a' } })
    expect(answer.headers.get('x-seen')).toBe('GET /api/x?q=1')
    expect(await answer.text()).toBe('AT /X?Q=1')
  })

  it('hands on a request no route takes', async () => {
    const served = await proxy(front, { '/api': 'http://127.0.0.1:9' }, { log: 'silent' })
    const answer = await fetch(`${served.url}/elsewhere`, { method: 'POST', body: 'kept' })
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe('front: no route\n')
  })
})

const deadAnswers: Partial<Record<Front, { body: string; line: string }>> = {}

describe('createFetchHandler', () => {
  it('answered the dead backend with the same body and log line as the Node front end', () => {
    expect(deadAnswers.fetch).toBeDefined()
    expect(deadAnswers.fetch).toEqual(deadAnswers.node)
    expect(deadAnswers['fetch over fetch']).toEqual(deadAnswers.node)
  })

  it("forwards through undici's dispatch() on Node, fetch being the fallback for runtimes without it", () => {
    expect(undiciDispatches()).toBe(true)
  })

  it("answers a step's error 500 with the line the Node proxy logs when it is the whole server", async () => {
    const origin = () => {
      throw new Error('boom')
    }
    const routes = { '/api': { target: 'http://127.0.0.1:9', cors: { origin } } }
    const fetchLines: string[] = []
    const sink = { info() {}, warn() {}, error: (line: string) => fetchLines.push(line) }
    const handler = createFetchHandler(routes, { logger: sink })
    const answer = (await handler(
      new Request('http://localhost/api/x', { headers: { origin: 'http://a.test' } }),
    )) as Response
    expect(answer.status).toBe(500)
    await handler.close()
    const nodeLines: string[] = []
    const proxyServer = createServer(
      createCorsDevProxy(routes, { logger: { ...sink, error: (line: string) => nodeLines.push(line) } })
        .middleware,
    )
    await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve))
    cleanup.push(() => new Promise((resolve) => proxyServer.close(() => resolve())))
    const { port } = proxyServer.address() as AddressInfo
    expect(
      (await fetch(`http://127.0.0.1:${port}/api/x`, { headers: { origin: 'http://a.test' } })).status,
    ).toBe(500)
    expect(fetchLines).toHaveLength(1)
    expect(fetchLines).toEqual(nodeLines)
  })

  it('prints the routes line once, when created, as every other front end does at start', async () => {
    const lines: string[] = []
    const sink = { info: (line: string) => lines.push(line), warn() {}, error() {} }
    const handler = createFetchHandler(
      { '/api': 'http://127.0.0.1:9', '/live': 'ws://127.0.0.1:9' },
      { logger: sink },
    )
    expect(lines.map((line) => stripVTControlCharacters(line))).toEqual([
      '[cors-dev-proxy] routes: /api → http://127.0.0.1:9, /live → ws://127.0.0.1:9',
    ])
    await handler(new Request('http://localhost/other'))
    expect(lines).toHaveLength(1)
    await handler.close()
  })

  it('resolves undefined when no route matches, leaving the body unread', async () => {
    const handler = createFetchHandler({ '/api': 'http://127.0.0.1:9' }, { log: 'silent' })
    const request = new Request('http://localhost/other', {
      method: 'POST',
      body: 'left for the next handler',
    })
    expect(await handler(request)).toBeUndefined()
    expect(await request.text()).toBe('left for the next handler')
    await handler.close()
  })

  it.each([
    [
      'configure',
      { '/api': { target: 'http://localhost:3001/v1', configure: () => {} } },
      "routes['/api'].configure",
      /on\.proxyRes/,
    ],
    [
      'on.proxyReq',
      { '/api': { target: 'http://localhost:3001/v1', on: { proxyReq: () => {} } } },
      "routes['/api'].on.proxyReq",
      /ClientRequest/,
    ],
    [
      'agent',
      { '/api': { target: 'https://localhost:3001/v1', agent: new Agent() } },
      "routes['/api'].agent",
      /secure: false/,
    ],
  ])(
    "refuses %s by name, with what to use instead and the route's own target in the fix",
    (_name, routes, option, advice) => {
      let error: unknown
      try {
        createFetchHandler(routes as never, { log: 'silent' })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(CorsDevProxyError)
      expect((error as CorsDevProxyError).option).toBe(option)
      expect((error as Error).message).toMatch(advice)
      expect((error as Error).message).toContain('Fix it like this:')
      expect((error as Error).message).toMatch(
        /Fix it like this: \{ '\/api': \{ target: 'https?:\/\/localhost:3001\/v1'/,
      )
      expect((error as Error).message).toContain('createFetchHandler')
    },
  )
})
