import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { createInspectorMcpServer } from '../../src/mcp/mcp-server.js'
import { NO_OPENAPI_ROUTE } from '../../src/mcp/violations-tool.js'

/*
 * `list_violations` against a real dev server (node:http with the adapters' set-up on port 0)
 * whose `/api` route has the Petstore as `openapi`, and a backend that breaks it three ways (a
 * required field missing, a field of the wrong type, an undeclared status); the MCP client calls
 * the tool over the SDK's in-memory transport. A dev server without `openapi` gets one sentence.
 */

const PETSTORE = fileURLToPath(
  new URL('../../../core/test/contract/fixtures/petstore-3.0.yaml', import.meta.url),
)

/** What the backend answers by path: /v1/pets/4 keeps the document. */
const ANSWERS: Record<string, { status: number; body: string }> = {
  '/v1/pets/1': { status: 200, body: '{"id":1}' },
  '/v1/pets/2': { status: 200, body: '{"id":2,"name":5}' },
  '/v1/pets/3': { status: 500, body: '{"title":"boom"}' },
  '/v1/pets/4': { status: 200, body: '{"id":4,"name":"Rex"}' },
}

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A dev server with one `/api` route (its options beside `target`) to a backend answering {@link ANSWERS}. */
async function startDevServer(route: Record<string, unknown>) {
  const backend = await listen(
    createServer((req, res) => {
      const answer = ANSWERS[req.url ?? '']
      if (answer === undefined) return void res.writeHead(404).end()
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
    }),
  )
  const server = createServer()
  const proxy = createDevServerProxy(
    resolveOptions({ '/api': { target: `${backend.url}/v1`, ...route } }, { log: 'silent' }),
    { server },
  )
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('app')))
  const front = await listen(server)
  closers.push(backend.close, () => proxy.close(), front.close)
  return front.url
}

/** An MCP client on a fresh MCP server for `origin`, and a call of `list_violations`. */
async function connect(origin: string) {
  const mcp = createInspectorMcpServer(origin)
  const client = new Client({ name: 'test', version: '1.0.0' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([client.connect(clientSide), mcp.server.connect(serverSide)])
  // The output schemas are read from the list: the client then checks every structured result against them.
  await client.listTools()
  closers.push(
    () => client.close(),
    () => mcp.close(),
  )
  return async (args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name: 'list_violations', arguments: args })
    return {
      text: (result.content as { text: string }[]).map((part) => part.text).join('\n'),
      structured: (result.structuredContent ?? {}) as {
        checked: boolean
        total: number
        violations: Record<string, unknown>[]
      },
      isError: result.isError === true,
    }
  }
}

describe('list_violations', () => {
  it('lists the distinct violations with pointer, expected and actual, count and last call; filters by route and operation', async () => {
    const origin = await startDevServer({ openapi: PETSTORE })
    const listViolations = await connect(origin)
    expect((await listViolations()).text).toMatch(/^No OpenAPI violation yet/)
    for (const id of [1, 2, 3, 4, 1]) await sendRequest(`${origin}/api/pets/${id}`)
    // The checks end after each response closed: wait for the three distinct ones.
    let answer = await listViolations()
    for (let tries = 0; answer.structured.total < 3 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      answer = await listViolations()
    }
    expect(answer.isError).toBe(false)
    expect(answer.structured.checked).toBe(true)
    const byPointer = Object.fromEntries(answer.structured.violations.map((one) => [one.pointer, one]))
    expect(Object.keys(byPointer).sort()).toEqual(['', '/name', 'status'])
    expect(byPointer['']).toMatchObject({
      route: '/api',
      operation: 'GET /pets/{petId}',
      in: 'response',
      count: 2,
      method: 'GET',
      url: '/api/pets/1',
      lastExchange: expect.any(Number),
      message: expect.stringContaining("'name'"),
    })
    expect(byPointer['/name']).toMatchObject({
      count: 1,
      url: '/api/pets/2',
      expected: 'string',
      actual: 'integer',
    })
    expect(byPointer.status).toMatchObject({ count: 1, url: '/api/pets/3' })
    expect(answer.text).toMatch(/^3 of 3 distinct violations, oldest first:/)
    expect(answer.text).toMatch(/^- \/api GET \/pets\/\{petId\} response \/name: .*string.* \(×1\)$/m)
    expect(answer.text).toContain("  expected property 'name'; got absent")
    expect(answer.text).toMatch(/^ {2}last: #\d+ GET \/api\/pets\/2 at \d{4}-/m)

    const other = await listViolations({ route: '/other' })
    expect(other.structured).toMatchObject({ checked: true, total: 3, violations: [] })
    expect(other.text).toBe('0 of 3 distinct violations, oldest first:')
    const byOperation = await listViolations({ operation: 'get /pets/{petId}' })
    expect(byOperation.structured.violations).toHaveLength(3)
    expect((await listViolations({ operation: 'POST' })).structured.violations).toHaveLength(0)
  })

  it('says in one sentence, with the fix, that no route has openapi', async () => {
    const origin = await startDevServer({})
    const listViolations = await connect(origin)
    await sendRequest(`${origin}/api/pets/1`)
    const answer = await listViolations()
    expect(answer).toEqual({
      text: NO_OPENAPI_ROUTE,
      structured: { checked: false, total: 0, violations: [] },
      isError: false,
    })
    expect(answer.text).toContain("openapi: './openapi.yaml'")
  })

  it('says the same on a dev server with the inspector off and no openapi', async () => {
    const origin = await startDevServer({})
    // The inspector off: /__cors-dev-proxy/ is then the page that says so, and /violations a 404 of ours.
    const bare = createServer()
    const proxy = createDevServerProxy(
      resolveOptions({ '/api': origin }, { log: 'silent', inspector: false }),
      {
        server: bare,
      },
    )
    bare.on('request', (req, res) => proxy.middleware(req, res, () => res.end('app')))
    const front = await listen(bare)
    closers.push(() => proxy.close(), front.close)
    const answer = await (await connect(front.url))()
    expect(answer.isError).toBe(false)
    expect(answer.text).toBe(NO_OPENAPI_ROUTE)
  })
})
