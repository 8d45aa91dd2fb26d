// A route's `openapi` with bodies over its `maxBodyBytes`, through createCorsDevProxy's
// middleware and real node:http servers: `enforce: 'request'` reads a request body only up to
// the bound and streams the rest on (the backend gets the first bytes while the client still
// sends, and the body whole); a body too large to check is never taken for a missing one; a
// refused request leaves its keep-alive connection usable; `mock: 'missing'` lets a large
// declared 404 through whole and replaces a large undeclared one.
import { createHash } from 'node:crypto'
import { Agent, createServer, type IncomingMessage, request } from 'node:http'
import { connect, createServer as createH2cServer, type Http2ServerRequest } from 'node:http2'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { createCorsDevProxy, type ProxyResponse } from '../../src/index.js'

const PETSTORE = fileURLToPath(new URL('../contract/fixtures/petstore-3.0.yaml', import.meta.url))
const LIMIT = 4096

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** A backend that hashes each POST body and says when it has seen its first bytes. */
async function startHashingBackend() {
  const bodies: string[] = []
  let firstBytes: () => void = () => undefined
  const started = new Promise<void>((resolve) => {
    firstBytes = resolve
  })
  const server = createServer((req, res) => {
    const hash = createHash('sha256')
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk)
      firstBytes()
    })
    req.on('end', () => {
      bodies.push(hash.digest('hex'))
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":9,"name":"Rex"}')
    })
  })
  const listening = await listen(server)
  closers.push(listening.close)
  return { url: listening.url, bodies, started }
}

async function startProxy(routes: Parameters<typeof createCorsDevProxy>[0]) {
  const proxy = createCorsDevProxy(routes, { log: 'silent', inspector: true })
  const listening = await listen(
    createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())),
  )
  closers.push(() => proxy.close(), listening.close)
  return listening.url
}

/** The answer to a request whose body the caller writes. */
function open(url: string, init: { method?: string; headers?: Record<string, string>; agent?: Agent }) {
  let answered: (value: { status: number; body: Buffer; socket: unknown }) => void = () => undefined
  let failed: (error: Error) => void = () => undefined
  const answer = new Promise<{ status: number; body: Buffer; socket: unknown }>((resolve, reject) => {
    answered = resolve
    failed = reject
  })
  const req = request(
    url,
    {
      method: init.method ?? 'GET',
      headers: { 'sec-fetch-site': 'same-origin', ...init.headers },
      ...(init.agent === undefined ? {} : { agent: init.agent }),
    },
    (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        answered({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), socket: res.socket }),
      )
    },
  )
  req.on('error', failed)
  return { req, answer }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)),
  ])
}

/** The route's exchanges once each was checked. */
async function checkedExchanges(origin: string, count: number) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { answer, req } = open(`${origin}/__cors-dev-proxy/exchanges`, {})
    req.end()
    const list = JSON.parse((await answer).body.toString()) as {
      url: string
      violations?: unknown[]
      contractSkipped?: string
    }[]
    if (list.length >= count && list.every((one) => one.violations !== undefined)) return list
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the exchanges were never all checked')
}

describe('openapi and bodies over maxBodyBytes', () => {
  it("enforce: 'request' streams a chunked body past the bound on, whole, without waiting for its end", async () => {
    const backend = await startHashingBackend()
    const origin = await startProxy({
      '/api': {
        target: `${backend.url}/v1`,
        openapi: { document: PETSTORE, enforce: 'request', maxBodyBytes: LIMIT },
      },
    })
    const first = Buffer.alloc(4 * LIMIT, 'a')
    const rest = Buffer.alloc(2 * 1024 * 1024, 'b')
    const { req, answer } = open(`${origin}/api/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    })
    req.write(first)
    // Read whole before the check, the body would reach the backend only after the client's end.
    await within(backend.started, 10_000, 'the backend got the first bytes')
    req.end(rest)
    const answered = await answer
    expect(answered.status).toBe(201)
    expect(backend.bodies).toEqual([sha(Buffer.concat([first, rest]))])
    const [exchange] = await checkedExchanges(origin, 1)
    expect(exchange?.violations).toEqual([])
    expect(exchange?.contractSkipped).toBe(`the request body is over maxBodyBytes (${LIMIT} bytes)`)
  })

  it("enforce: 'request' streams an HTTP/2 body past the bound on, whole, without waiting for its end", async () => {
    const backend = await startHashingBackend()
    const proxy = createCorsDevProxy(
      {
        '/api': {
          target: `${backend.url}/v1`,
          openapi: { document: PETSTORE, enforce: 'request', maxBodyBytes: LIMIT },
        },
      },
      { log: 'silent' },
    )
    const front = await listen(
      createH2cServer((req: Http2ServerRequest, res) =>
        proxy.middleware(req, res as unknown as ProxyResponse),
      ),
    )
    closers.push(() => proxy.close(), front.close)
    const session = connect(front.url)
    closers.push(async () => session.close())
    const stream = session.request({
      ':method': 'POST',
      ':path': '/api/pets',
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
    })
    const status = new Promise<number>((resolve) =>
      stream.on('response', (head) => resolve(Number(head[':status']))),
    )
    stream.resume()
    const first = Buffer.alloc(4 * LIMIT, 'a')
    const rest = Buffer.alloc(1024 * 1024, 'b')
    stream.write(first)
    await within(backend.started, 10_000, 'the backend got the first bytes')
    stream.end(rest)
    expect(await within(status, 10_000, 'the answer came')).toBe(201)
    expect(backend.bodies).toEqual([sha(Buffer.concat([first, rest]))])
  })

  it('takes a required body too large to check for one not checked, never for a missing one', async () => {
    const backend = await startHashingBackend()
    const origin = await startProxy({
      '/api': {
        target: `${backend.url}/v1`,
        openapi: { document: PETSTORE, enforce: 'request', maxBodyBytes: LIMIT },
      },
      '/watch': { target: `${backend.url}/v1`, openapi: { document: PETSTORE, maxBodyBytes: LIMIT } },
    })
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(3 * LIMIT) }))
    for (const prefix of ['/api', '/watch']) {
      const { req, answer } = open(`${origin}${prefix}/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) },
      })
      req.end(body)
      expect((await answer).status).toBe(201)
    }
    expect(backend.bodies).toEqual([sha(body), sha(body)])
    const exchanges = await checkedExchanges(origin, 2)
    expect(exchanges.map((one) => one.violations)).toEqual([[], []])
  })

  it('refuses a request whose body it read in part, and the connection serves the next request', async () => {
    const backend = await startHashingBackend()
    const origin = await startProxy({
      '/api': {
        target: `${backend.url}/v1`,
        openapi: { document: PETSTORE, enforce: 'request', maxBodyBytes: LIMIT },
      },
    })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    closers.push(async () => agent.destroy())
    // No operation takes a POST to /pets/mine: refused before the backend, whatever the body.
    const refused = open(`${origin}/api/pets/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      agent,
    })
    refused.req.write(Buffer.alloc(4 * LIMIT, 'a'))
    refused.req.end(Buffer.alloc(256 * 1024, 'b'))
    const first = await within(refused.answer, 10_000, 'the refusal came')
    expect(first.status).toBe(400)
    const next = open(`${origin}/api/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      agent,
    })
    next.req.end('{"name":"Rex"}')
    const second = await within(next.answer, 10_000, 'the next request on the connection was answered')
    expect(second.status).toBe(201)
    expect(second.socket).toBe(first.socket)
    expect(backend.bodies).toEqual([sha(Buffer.from('{"name":"Rex"}'))])
  })

  it("mock: 'missing' lets a large declared 404 through whole and answers a large undeclared one from the document", async () => {
    const big = Buffer.alloc(1024 * 1024 + 17, 'n')
    const backend = await listen(
      createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end(big)),
    )
    closers.push(backend.close)
    const document = {
      openapi: '3.0.3',
      info: { title: 'big 404s', version: '1' },
      paths: {
        '/pets/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: {
              '200': { description: 'a pet', content: { 'application/json': { example: { id: 1 } } } },
            },
          },
        },
        '/owners/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'an owner' }, '404': { description: 'no such owner' } },
          },
        },
      },
    }
    const origin = await startProxy({
      '/api': { target: backend.url, openapi: { document, mock: 'missing' } },
    })
    const declared = open(`${origin}/api/owners/7`, {})
    declared.req.end()
    const passed = await declared.answer
    expect(passed.status).toBe(404)
    expect(sha(passed.body)).toBe(sha(big))
    const undeclared = open(`${origin}/api/pets/1`, {})
    undeclared.req.end()
    const mocked = await undeclared.answer
    expect(mocked.status).toBe(200)
    expect(JSON.parse(mocked.body.toString())).toEqual({ id: 1 })
  })
})
