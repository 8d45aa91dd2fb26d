import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createFetchHandler, type FetchHandler } from '../../src/proxy/create-fetch-handler.js'

/** Resolves when the upstream's endless answer (`/endless`) loses its client, the proxy. */
let endlessClosed: Promise<void> = new Promise(() => {})

/**
 * The upstream: answers the request line and headers it received, as JSON; `/endless` sends a
 * head and one chunk and never ends.
 */
function startEcho(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/endless') {
      endlessClosed = new Promise((resolve) => res.once('close', () => resolve()))
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first')
      return
    }
    if (req.url === '/chunked') {
      // No length: the body's framing is chunked, its parts a turn of the event loop apart.
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('part one, ')
      setTimeout(() => res.end('part two'), 20)
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ url: req.url, method: req.method, headers: req.headers, body }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

interface Echoed {
  readonly url: string
  readonly method: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A request with repeated fields, as a browser or curl may send them, read back as the upstream saw it. */
function send(base: string, path: string, method = 'GET', body?: string): Promise<Echoed> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, {
      method,
      // A list of fields is sent as it is: Node adds no Host to it.
      headers: [
        'Host',
        new URL(base).host,
        'X-Multi',
        'one',
        'X-Multi',
        'two',
        'Cookie',
        'a=1',
        'Cookie',
        'b=2',
        'Accept',
        'application/json',
        ...(body === undefined ? [] : ['Content-Type', 'text/plain']),
      ],
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Echoed))
    })
    req.on('error', reject)
    req.end(body)
  })
}

// @hono/node-server hands the handler a lightweight `Request` and its `{ incoming, outgoing }`:
// the handler reads the request line and headers from `incoming` while nothing has built the
// `Request`'s headers, and from the `Request` once something has (and may have changed them).
describe('the Fetch handler behind @hono/node-server', () => {
  let echo: Server
  let proxy: FetchHandler
  let untouched: Server
  let changed: Server
  /** What the last request through `untouched` had built of itself once the proxy answered. */
  let built: (string | undefined)[] = []

  beforeAll(async () => {
    echo = await startEcho()
    proxy = createFetchHandler(
      {
        '/api': { target: urlOf(echo), pathRewrite: { '^/api': '' } },
        '/skip': { target: urlOf(echo), bypass: () => '/served-by-the-dev-server' },
      },
      { log: 'silent' },
    )
    const notFound = (): Response => new Response('no route\n', { status: 404 })
    untouched = createServer(
      getRequestListener(async (request, env) => {
        const answer = await proxy(request, env)
        built = Object.getOwnPropertySymbols(request).map((key) => key.description)
        return answer ?? new Response(`no route for ${env.incoming.url}\n`, { status: 404 })
      }),
    )
    changed = createServer(
      getRequestListener(async (request, env) => {
        request.headers.set('x-added', 'by a middleware')
        request.headers.delete('accept')
        return (await proxy(request, env)) ?? notFound()
      }),
    )
    await Promise.all(
      [untouched, changed].map(
        (server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
      ),
    )
  })

  afterAll(async () => {
    await proxy.close()
    for (const server of [echo, untouched, changed]) server.close()
  })

  it('forwards the request line and repeated fields as the client sent them', async () => {
    const seen = await send(urlOf(untouched), '/api/items?b=2&a=1')
    expect(seen.url).toBe('/items?b=2&a=1')
    expect(seen.headers['x-multi']).toBe('one, two')
    expect(seen.headers.cookie).toBe('a=1; b=2')
    expect(seen.headers.accept).toBe('application/json')
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1')
    // Read from `incoming`: the lightweight Request never built its Headers (the adapter's cost).
    expect(built).toContain('incomingKey')
    expect(built).not.toContain('headersKey')
    expect(seen.headers['x-forwarded-host']).toBe(`127.0.0.1:${(untouched.address() as AddressInfo).port}`)
  })

  it('records the size and head of an answer the runtime writes after the engine is done', async () => {
    const answer = await fetch(`${urlOf(untouched)}/api/sized`)
    const length = Number(answer.headers.get('content-length'))
    await answer.text()
    const list = (await (await fetch(`${urlOf(untouched)}/__cors-dev-proxy/exchanges`)).json()) as {
      url: string
      responseBytes: number
      responseHeaders: [string, string][]
    }[]
    const exchange = list.find((item) => item.url === '/api/sized')
    expect(length).toBeGreaterThan(100)
    expect(exchange?.responseBytes).toBe(length)
    // The head as the engine wrote it, names as Node lays them out.
    expect(exchange?.responseHeaders).toContainEqual(['content-type', 'application/json'])
    expect(exchange?.responseHeaders).toContainEqual(['content-length', String(length)])
  })

  it('records the size of an answer streamed without a length, as the bytes its body took', async () => {
    const answer = await fetch(`${urlOf(untouched)}/api/chunked`)
    expect(answer.headers.get('content-length')).toBeNull()
    expect(await answer.text()).toBe('part one, part two')
    const list = (await (await fetch(`${urlOf(untouched)}/__cors-dev-proxy/exchanges`)).json()) as {
      url: string
      responseBytes: number
    }[]
    expect(list.find((item) => item.url === '/api/chunked')?.responseBytes).toBe('part one, part two'.length)
  })

  it('forwards the headers a middleware changed on the Request', async () => {
    const seen = await send(urlOf(changed), '/api/items')
    expect(seen.headers['x-added']).toBe('by a middleware')
    expect(seen.headers.accept).toBeUndefined()
    expect(seen.headers.cookie).toBe('a=1; b=2')
  })

  it('streams an upload from `incoming` itself, building no full Request', async () => {
    const seen = await send(urlOf(untouched), '/api/upload', 'POST', 'hello body')
    expect(seen).toMatchObject({ method: 'POST', url: '/upload', body: 'hello body' })
    expect(seen.headers['x-multi']).toBe('one, two')
    expect(built).not.toContain('requestCache')
  })

  it('streams an upload through a Request a middleware touched', async () => {
    const seen = await send(urlOf(changed), '/api/upload', 'POST', 'hello body')
    expect(seen).toMatchObject({ method: 'POST', url: '/upload', body: 'hello body' })
    expect(seen.headers['x-added']).toBe('by a middleware')
  })

  it('aborts the upstream request when the client leaves mid-answer, with nothing printed', async () => {
    // node-server prints a body that fails under it as an error of the server.
    const printed = vi.spyOn(console, 'error')
    const { port } = untouched.address() as AddressInfo
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/endless' }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString())
          // The client goes away with the answer still open.
          req.destroy()
        })
      })
      req.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
      })
      req.end()
    })
    expect(firstChunk).toBe('first')
    const gone = await Promise.race([
      endlessClosed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 5000, 'still open after 5 s')),
    ])
    expect(gone).toBe('closed')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(printed).not.toHaveBeenCalled()
    printed.mockRestore()
  })

  it('leaves a request no route takes to the next handler', async () => {
    const answer = await fetch(`${urlOf(untouched)}/elsewhere`)
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe('no route for /elsewhere\n')
  })

  it('hands a request a bypass passes on to the next handler with its own URL', async () => {
    const answer = await fetch(`${urlOf(untouched)}/skip/page?x=1`)
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe('no route for /skip/page?x=1\n')
  })
})
