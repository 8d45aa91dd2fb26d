// A route's `openapi` at request time, through createCorsDevProxy's middleware and the Fetch
// handler: each exchange checked against the document after it closed (the exchange view, the
// HAR, `/violations`, one log line per distinct violation), the answer left byte for byte as the
// backend sent it; `enforce: 'request'` refusing before the backend; `mock: 'missing'` answering
// from the document where the target cannot be reached.
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { loadContract } from '../../src/contract/load-contract.js'
import { createCorsDevProxy } from '../../src/index.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'

const PETSTORE = fileURLToPath(new URL('../contract/fixtures/petstore-3.0.yaml', import.meta.url))
const REFUSED = 'http://127.0.0.1:2'

/** A backend that breaks the Petstore three ways, keeps it once, and answers one pet gzip-compressed. */
const ANSWERS: Record<string, { status: number; body: Buffer; gzip?: boolean }> = {
  '/v1/pets/1': { status: 200, body: Buffer.from('{"id":1}') },
  '/v1/pets/2': { status: 200, body: Buffer.from('{"id":2,"name":5}') },
  '/v1/pets/3': { status: 500, body: Buffer.from('{"title":"boom"}') },
  '/v1/pets/4': { status: 200, body: gzipSync('{"id":4,"name":"Rex","tag":7}'), gzip: true },
  '/v1/pets/mine': { status: 200, body: Buffer.from('[{"id":5,"name":"Rex"}]') },
}

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function startBackend(): Promise<{ url: string; posts: () => number }> {
  let posts = 0
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST') {
      posts += 1
      req.resume()
      req.on('end', () =>
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":9,"name":"Rex"}'),
      )
      return
    }
    const answer = ANSWERS[req.url ?? '']
    if (answer === undefined) return void res.writeHead(404).end()
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (answer.gzip) headers['content-encoding'] = 'gzip'
    res.writeHead(answer.status, headers).end(answer.body)
  })
  const listening = await listen(server)
  closers.push(listening.close)
  return { url: listening.url, posts: () => posts }
}

/** A node:http server with the proxy's middleware, and what its logger printed. */
async function startProxy(routes: Parameters<typeof createCorsDevProxy>[0]) {
  const lines: string[] = []
  const sink = {
    info: () => undefined,
    warn: (line: string) => lines.push(line),
    error: (line: string) => lines.push(line),
  }
  const proxy = createCorsDevProxy(routes, { logger: sink, inspector: true })
  const listening = await listen(
    createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())),
  )
  closers.push(() => proxy.close(), listening.close)
  return { url: listening.url, lines }
}

/** One request, its status, headers and raw bytes (no decoding). */
function call(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: init.method ?? 'GET', headers: { 'sec-fetch-site': 'same-origin', ...init.headers } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          )
        },
      )
      req.on('error', reject)
      req.end(init.body)
    },
  )
}

interface ViewedExchange {
  url: string
  violations?: { in: string; operation: string; pointer: string; message: string }[]
  contractSkipped?: string
}

/** The exchange view once every check is over (checks run after the response closed). */
async function exchangesOf(origin: string, count: number): Promise<ViewedExchange[]> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const list = JSON.parse(
      (await call(`${origin}/__cors-dev-proxy/exchanges`)).body.toString(),
    ) as ViewedExchange[]
    if (list.length >= count && list.every((one) => one.violations !== undefined)) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return JSON.parse(
        (await call(`${origin}/__cors-dev-proxy/exchanges`)).body.toString(),
      ) as ViewedExchange[]
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('the exchanges were never all checked')
}

const brief = (violations: ViewedExchange['violations']) =>
  violations?.map(({ in: side, pointer }) => `${side} ${pointer}`)

/** A document whose operations carry examples, one a schema only, one a declared 404. */
const MOCK_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'mocks', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'a pet',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'name'],
                  properties: { id: { type: 'integer' }, name: { type: 'string' } },
                },
                examples: {
                  rex: { value: { id: 1, name: 'Rex' } },
                  tom: { value: { id: 2, name: 'Tom' } },
                },
              },
            },
          },
        },
      },
    },
    '/owners/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'an owner', content: { 'application/json': { example: { name: 'Ann' } } } },
          '404': { description: 'no such owner' },
        },
      },
    },
    '/owners': {
      get: {
        responses: {
          '200': {
            description: 'owners',
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  minItems: 1,
                  items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    },
  },
}

/** Each mocked answer is a 200 that keeps MOCK_DOCUMENT's operation for its path. */
async function expectMocksKeepDocument(
  answers: readonly (readonly [
    string,
    { status: number; headers: IncomingMessage['headers']; body: Buffer },
  ])[],
) {
  const contract = await loadContract(structuredClone(MOCK_DOCUMENT), { cwd: process.cwd() })
  for (const [path, answer] of answers) {
    expect(answer.status).toBe(200)
    const check = contract.findOperation('GET', path)?.checkResponse({
      status: answer.status,
      headers: { 'content-type': String(answer.headers['content-type']) },
      body: answer.body,
    })
    expect(check?.violations).toEqual([])
  }
}

describe("a route's openapi", () => {
  it('checks each exchange: the exchange view, the HAR, /violations and one log line per distinct violation', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({ '/api': { target: `${backend.url}/v1`, openapi: PETSTORE } })
    for (const id of [1, 2, 3, 4, 1, 2, 3]) {
      const answer = await call(`${proxy.url}/api/pets/${id}`)
      // Byte for byte what the backend sent, the gzip body still compressed.
      expect(answer.body.equals((ANSWERS[`/v1/pets/${id}`] as { body: Buffer }).body)).toBe(true)
    }
    await call(`${proxy.url}/api/pets/mine`)
    await call(`${proxy.url}/api/nothing/here`)
    const exchanges = await exchangesOf(proxy.url, 9)
    const byUrl = Object.fromEntries(exchanges.map((one) => [one.url, brief(one.violations)]))
    // A required field missing is a violation of the object that lacks it: the whole body, ''.
    expect(byUrl['/api/pets/1']).toEqual(['response '])
    expect(exchanges[0]?.violations?.[0]?.message).toContain("'name'")
    expect(byUrl['/api/pets/2']).toEqual(['response /name'])
    expect(exchanges[1]?.violations?.[0]?.message).toContain('string')
    expect(byUrl['/api/pets/3']).toEqual(['response status'])
    expect(byUrl['/api/pets/4']).toEqual(['response /tag'])
    expect(byUrl['/api/pets/mine']).toEqual([])
    // The target's own path once: the exchange went to /v1/pets/1, not /v1/v1/pets/1.
    expect((exchanges[0] as { upstreamUrl?: string }).upstreamUrl).toBe(`${backend.url}/v1/pets/1`)
    expect(exchanges.at(-1)?.violations?.[0]?.message).toBe(
      'no operation in the document for GET /v1/nothing/here',
    )

    const har = JSON.parse((await call(`${proxy.url}/__cors-dev-proxy/har`)).body.toString()) as {
      log: { entries: { request: { url: string }; _violations?: unknown[] }[] }
    }
    const entry = (path: string) => har.log.entries.find((one) => one.request.url.endsWith(path))
    expect(entry('/api/pets/1')?._violations).toEqual([
      { in: 'response', operation: 'GET /pets/{petId}', pointer: '', message: expect.any(String) },
    ])
    expect(entry('/api/pets/mine')?._violations).toEqual([])

    const listed = await call(`${proxy.url}/__cors-dev-proxy/violations`)
    // Every check has ended once the exchanges show their verdicts: none still running.
    expect(listed.headers['x-cors-dev-proxy-pending-checks']).toBe('0')
    const distinct = JSON.parse(listed.body.toString()) as {
      pointer: string
      count: number
      lastExchange: number
    }[]
    // In the order the checks ended (the first ones wait for the document together).
    expect(distinct.map(({ pointer, count }) => `${pointer} ${count}`).sort()).toEqual([
      ' 2',
      '/name 2',
      '/tag 1',
      'path 1',
      'status 2',
    ])
    const status = distinct.find((one) => one.pointer === 'status')
    expect(status?.lastExchange).toBe((exchanges[6] as unknown as { id: number }).id)
    const logged = proxy.lines.filter((line) => line.includes('breaks the OpenAPI document'))
    expect(logged).toHaveLength(5)
    expect(logged).toContainEqual(
      expect.stringContaining(
        "route '/api': GET /pets/{petId} breaks the OpenAPI document in the response at body: must have required property 'name'",
      ),
    )
  })

  it('counts the calls of one missing operation as one violation, whatever ids their paths hold', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({ '/api': { target: `${backend.url}/v1`, openapi: PETSTORE } })
    const ids = ['1', '2', '5f1d7a2b9c8e4b0012345678', '0b6b8a3e-4f2c-4d7a-9a61-3c2b1e0f9d8c']
    for (const id of ids) await call(`${proxy.url}/api/owners/${id}/visits`)
    await exchangesOf(proxy.url, ids.length)
    const distinct = JSON.parse((await call(`${proxy.url}/__cors-dev-proxy/violations`)).body.toString()) as {
      operation: string
      message: string
      count: number
    }[]
    expect(distinct.map(({ operation, message, count }) => [operation, message, count])).toEqual([
      ['GET /v1/owners/{id}/visits', 'no operation in the document for GET /v1/owners/{id}/visits', 4],
    ])
    expect(proxy.lines.filter((line) => line.includes('breaks the OpenAPI document'))).toHaveLength(1)
  })

  it('gives a route without openapi no check: no violations in its exchanges, no /violations', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({ '/api': { target: `${backend.url}/v1` } })
    await call(`${proxy.url}/api/pets/1`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const list = JSON.parse(
      (await call(`${proxy.url}/__cors-dev-proxy/exchanges`)).body.toString(),
    ) as ViewedExchange[]
    expect(list).toHaveLength(1)
    expect('violations' in (list[0] as object)).toBe(false)
    expect((await call(`${proxy.url}/__cors-dev-proxy/violations`)).status).toBe(404)
  })

  it('logs one line naming the option when the document cannot be used, and keeps forwarding', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({
      '/api': { target: `${backend.url}/v1`, openapi: './no-such-openapi.yaml' },
    })
    expect((await call(`${proxy.url}/api/pets/mine`)).status).toBe(200)
    expect((await call(`${proxy.url}/api/pets/mine`)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const errors = proxy.lines.filter((line) => line.includes("routes['/api'].openapi"))
    expect(errors).toHaveLength(1)
  })

  it("enforce: 'request' answers 400 naming the field, and the backend receives nothing", async () => {
    const backend = await startBackend()
    const proxy = await startProxy({
      '/api': { target: `${backend.url}/v1`, openapi: { document: PETSTORE, enforce: 'request' } },
    })
    const refused = await call(`${proxy.url}/api/pets`, {
      method: 'POST',
      body: '{"name":42}',
      headers: { 'content-type': 'application/json' },
    })
    expect(refused.status).toBe(400)
    expect(refused.headers['content-type']).toBe('application/problem+json')
    const problem = JSON.parse(refused.body.toString()) as {
      status: number
      detail: string
      violations: unknown[]
    }
    expect(problem.status).toBe(400)
    expect(problem.detail).toContain('/name')
    expect(problem.violations.length).toBeGreaterThan(0)
    expect(backend.posts()).toBe(0)
    const passed = await call(`${proxy.url}/api/pets`, {
      method: 'POST',
      body: '{"name":"Rex"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(passed.status).toBe(201)
    expect(backend.posts()).toBe(1)
  })

  it("mock: 'missing' answers an unreachable target from the named example, the first example and the schema", async () => {
    const proxy = await startProxy({
      '/api': { target: REFUSED, openapi: { document: MOCK_DOCUMENT, mock: 'missing' } },
    })
    const named = await call(`${proxy.url}/api/pets/2`, { headers: { prefer: 'example=tom' } })
    const first = await call(`${proxy.url}/api/pets/1`)
    const sampled = await call(`${proxy.url}/api/owners`)
    expect(JSON.parse(named.body.toString())).toEqual({ id: 2, name: 'Tom' })
    expect(JSON.parse(first.body.toString())).toEqual({ id: 1, name: 'Rex' })
    expect(named.headers['x-cors-dev-proxy-mocked']).toBe('openapi GET /pets/{id} (example tom)')
    await expectMocksKeepDocument([
      ['/pets/2', named],
      ['/pets/1', first],
      ['/owners', sampled],
    ])
  })

  it("mock: 'missing' answers an undeclared 404 from the named example, the first example and the schema, and lets a declared 404 through", async () => {
    const backend = await listen(
      createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('nope')),
    )
    closers.push(backend.close)
    const proxy = await startProxy({
      '/api': { target: backend.url, openapi: { document: MOCK_DOCUMENT, mock: 'missing' } },
    })
    const mocked = await call(`${proxy.url}/api/pets/1`, { headers: { prefer: 'example=tom' } })
    expect(mocked.status).toBe(200)
    expect(JSON.parse(mocked.body.toString())).toEqual({ id: 2, name: 'Tom' })
    expect(mocked.headers['x-cors-dev-proxy-mocked']).toBe('openapi GET /pets/{id} (example tom)')
    const first = await call(`${proxy.url}/api/pets/1`)
    expect(JSON.parse(first.body.toString())).toEqual({ id: 1, name: 'Rex' })
    const sampled = await call(`${proxy.url}/api/owners`)
    expect(sampled.headers['x-cors-dev-proxy-mocked']).toBe('openapi GET /owners')
    await expectMocksKeepDocument([
      ['/pets/1', mocked],
      ['/pets/1', first],
      ['/owners', sampled],
    ])
    const declared = await call(`${proxy.url}/api/owners/7`)
    expect(declared.status).toBe(404)
    expect(declared.body.toString()).toBe('nope')
    expect(declared.headers['x-cors-dev-proxy-mocked']).toBeUndefined()
    const exchanges = await exchangesOf(proxy.url, 4)
    expect(exchanges.map((one) => (one as { upstreamUrl?: string }).upstreamUrl)).toEqual([
      'mocked by openapi GET /pets/{id}',
      'mocked by openapi GET /pets/{id}',
      'mocked by openapi GET /owners',
      `${backend.url}/owners/7`,
    ])
  })

  it("mock: 'missing' answers an undeclared 404 behind the Fetch handler too", async () => {
    const backend = await listen(createServer((_req, res) => res.writeHead(404).end('nope')))
    closers.push(backend.close)
    const handler = createFetchHandler(
      { '/api': { target: backend.url, openapi: { document: MOCK_DOCUMENT, mock: 'missing' } } },
      { log: 'silent' },
    )
    closers.push(() => handler.close())
    const mocked = await handler(new Request('http://127.0.0.1:3000/api/pets/1'))
    expect(mocked?.status).toBe(200)
    expect(await mocked?.json()).toEqual({ id: 1, name: 'Rex' })
    const declared = await handler(new Request('http://127.0.0.1:3000/api/owners/1'))
    expect(declared?.status).toBe(404)
    expect(await declared?.text()).toBe('nope')
  })

  it('checks the same way behind the Fetch handler', async () => {
    const backend = await startBackend()
    const handler = createFetchHandler(
      { '/api': { target: `${backend.url}/v1`, openapi: PETSTORE } },
      { log: 'silent', inspector: true },
    )
    closers.push(() => handler.close())
    const own = (path: string) =>
      new Request(`http://127.0.0.1:3000${path}`, { headers: { 'sec-fetch-site': 'same-origin' } })
    for (const id of [1, 2, 3]) await (await handler(own(`/api/pets/${id}`)))?.arrayBuffer()
    let list: ViewedExchange[] = []
    for (let attempt = 0; attempt < 100; attempt += 1) {
      list = (await (await handler(own('/__cors-dev-proxy/exchanges')))?.json()) as ViewedExchange[]
      if (list.length === 3 && list.every((one) => (one.violations?.length ?? 0) > 0)) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(list.map((one) => brief(one.violations))).toEqual([
      ['response '],
      ['response /name'],
      ['response status'],
    ])
  })
})
