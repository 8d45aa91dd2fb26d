import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createSecureServer } from 'node:http2'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import { createInspectorMcpServer, type InspectorMcpServer } from '../../src/mcp/mcp-server.js'
import {
  DOWN_TARGET,
  type InspectedDevServer,
  startInspectedDevServer,
} from '../support/inspected-dev-server.js'

/*
 * The MCP tools of `cors-dev-proxy mcp`, in this process: the SDK's client talks to the server
 * over its in-memory transport, and the tools call a real dev server's inspector over HTTP
 * (node:http with the adapters' set-up on 127.0.0.1, two real backends, and a route to a port
 * where nothing listens). The stdio process itself is tested in test/commands/mcp.test.ts.
 */

interface ToolAnswer {
  text: string
  structured: Record<string, unknown>
  isError: boolean
}

/** An MCP client connected to a fresh MCP server for the dev server at `origin`. */
async function connect(origin: string) {
  const mcp = createInspectorMcpServer(origin)
  const client = new Client({ name: 'test', version: '1.0.0' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([client.connect(clientSide), mcp.server.connect(serverSide)])
  // The output schemas are read from the list: the client then checks every structured result against them.
  await client.listTools()
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as { type: string; text: string }[]
    return {
      text: content.map((part) => part.text).join('\n'),
      structured: (result.structuredContent ?? {}) as Record<string, unknown>,
      isError: result.isError === true,
    }
  }
  return { mcp, client, call }
}

/**
 * The message docs/guide/mcp.md's "When a tool fails" table shows for a failure, found by a
 * fragment of it: the code span of the row's first cell.
 */
function documentedMessage(fragment: string): string {
  const page = readFileSync(new URL('../../../../docs/guide/mcp.md', import.meta.url), 'utf8')
  const rows = [...page.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] as string)
  const row = rows.find((message) => message.includes(fragment))
  if (row === undefined) throw new Error(`docs/guide/mcp.md has no row with ${fragment}`)
  return row
}

/** Whether `printed` reads as the page shows it: each part between the page's `…` in it, in order. */
function readsAsDocumented(documented: string, printed: string): boolean {
  let from = 0
  for (const part of documented.split('…').map((text) => text.trim())) {
    const at = printed.indexOf(part, from)
    if (at < 0) return false
    from = at + part.length
  }
  return true
}

let dev: InspectedDevServer
let mcp: InspectorMcpServer
let client: Client
let call: Awaited<ReturnType<typeof connect>>['call']
const crossOrigin = 'http://localhost:4000'

beforeAll(async () => {
  dev = await startInspectedDevServer()
  ;({ mcp, client, call } = await connect(dev.url))
  // Attached before the calls, as when the agent started it first: their bodies are kept.
  expect(await mcp.inspector.listen()).toBe(true)
  await dev.call('/api/users?token=query-secret', {
    method: 'POST',
    headers: { authorization: 'Bearer top-secret', 'content-type': 'application/json' },
    body: '{"name":"Ada"}',
  })
  await dev.call('/down/users', { headers: { accept: 'text/plain' } })
  await dev.call('/api/items', { headers: { origin: crossOrigin } })
})

afterAll(async () => {
  await client?.close()
  await mcp?.close()
  await dev?.close()
})

/** The ids of the three calls above, by path. */
async function idOf(path: string): Promise<number> {
  const { structured } = await call('list_exchanges', { pathContains: path, limit: 1 })
  const [first] = structured.exchanges as { id: number }[]
  if (first === undefined) throw new Error(`no exchange for ${path}`)
  return first.id
}

describe('cors-dev-proxy mcp tools', () => {
  it('lists its tools, each described for an agent, with input and output schemas', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'explain_failure',
      'get_controls',
      'get_exchange',
      'list_exchanges',
      'list_violations',
      'replay_exchange',
      'set_faults',
      'set_recording',
      'switch_target',
    ])
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(80)
      expect(tool.outputSchema?.type).toBe('object')
    }
  })

  it('list_exchanges: newest first, the failed ones alone, by path, within a limit', async () => {
    const all = await call('list_exchanges')
    expect(all.isError).toBe(false)
    expect(all.structured.recorded).toBe(3)
    const urls = (all.structured.exchanges as { url: string }[]).map((exchange) => exchange.url)
    expect(urls).toEqual(['/api/items', '/down/users', '/api/users?token=[masked]'])
    expect(all.text).toMatch(/^#\d+ GET \/down\/users → http:\/\/127\.0\.0\.1:1\/users 502 .*FAILED$/m)

    const failed = await call('list_exchanges', { failedOnly: true })
    expect(
      (failed.structured.exchanges as { url: string; cors: string }[]).map((one) => [one.url, one.cors]),
    ).toEqual([
      ['/api/items', 'blocked'],
      ['/down/users', 'same-origin'],
    ])
    const byPath = await call('list_exchanges', { pathContains: 'USERS', limit: 1 })
    expect(byPath.structured).toMatchObject({ matching: 2, exchanges: [{ url: '/down/users' }] })
  })

  it('get_exchange: headers, status, timing and bodies, masked as the inspector masks them', async () => {
    const id = await idOf('/api/users')
    const { text, structured, isError } = await call('get_exchange', { id })
    expect(isError).toBe(false)
    expect(text).toContain(`#${id} POST /api/users?token=[masked] → 200`)
    expect(text).toContain(`upstream: ${dev.local.url}/users?token=[masked]`)
    expect(text).toMatch(/^ {2}authorization: Bearer \[masked\]$/m)
    expect(text).not.toContain('top-secret')
    expect(text).toMatch(/^request body:\n\{"name":"Ada"\}$/m)
    expect(structured.exchange).toMatchObject({
      id,
      status: 200,
      route: '/api',
      requestBody: '{"name":"Ada"}',
    })
    expect(JSON.parse((structured.exchange as { responseBody: string }).responseBody)).toMatchObject({
      backend: 'local',
      url: '/users?token=query-secret',
    })
    expect(await call('get_exchange', { id, bodyLimit: 5 })).toMatchObject({
      structured: { exchange: { requestBody: '{"nam… (9 more characters)' } },
    })
    const missing = await call('get_exchange', { id: 999_999 })
    expect(missing.isError).toBe(true)
    expect(missing.text).toMatch(
      /^no exchange #999999: the inspector keeps the most recent ones only \(it holds #\d+ to #\d+\)/,
    )
  })

  it("explain_failure: the cause of a 502 as the dev proxy wrote it, a blocked answer in Chromium's words", async () => {
    const down = await call('explain_failure', { id: await idOf('/down/users') })
    expect(down.structured.exchange).toMatchObject({
      kind: 'unreachable',
      failed: true,
      cause: `connection refused: is the server at ${DOWN_TARGET} running?`,
    })
    expect(down.text).toContain(`fix: start the server behind ${DOWN_TARGET}/users`)

    const blocked = await call('explain_failure', { id: await idOf('/api/items') })
    expect(blocked.structured.exchange).toMatchObject({
      kind: 'cors',
      message: expect.stringContaining(
        `from origin '${crossOrigin}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
      ),
    })
    expect(blocked.text).toMatch(/^fix: .+/m)

    // Without an id: the latest failed call.
    const latest = await call('explain_failure')
    expect(latest.structured.exchange).toMatchObject({ kind: 'cors', call: 'GET /api/items → 200' })

    const fine = await call('explain_failure', { id: await idOf('/api/users') })
    expect(fine.structured.exchange).toMatchObject({ kind: 'ok', failed: false })
  })

  it("explain_failure with a url: the overlay's probe of a call the page made to another origin", async () => {
    const { text, structured, isError } = await call('explain_failure', {
      url: `${dev.local.url}/users`,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
    })
    expect(isError).toBe(false)
    expect(structured.explanation).toMatchObject({ kind: 'cors', route: expect.stringContaining('/api') })
    expect(text).toContain(`PUT ${dev.local.url}/users from a page of the dev server: cors`)
    expect(text).toMatch(/^console: Access to fetch at .+ has been blocked by CORS policy: /m)
    expect(text).toMatch(
      /^fix: call fetch\('\/api\/users', \{ method: 'PUT' \}\) instead: the configured route '\/api'/m,
    )
    // The PUT itself is never sent: at most a preflight and a GET or HEAD.
    expect(structured.explanation).toMatchObject({ probe: { notRepeated: 'PUT' } })
  })

  it('replay_exchange sends the call again and names the new exchange', async () => {
    const id = await idOf('/api/users')
    const { structured, text } = await call('replay_exchange', { id })
    expect(structured).toMatchObject({ replayOf: id, status: 200, id: expect.any(Number) })
    expect(text).toMatch(
      new RegExp(`^Replayed #${id} as exchange #${structured.id}: the dev server answered 200\\.`),
    )
    const replay = await call('get_exchange', { id: structured.id })
    expect(replay.structured.exchange).toMatchObject({ replayOf: id, requestBody: '{"name":"Ada"}' })
  })

  it('get_controls and switch_target: the next request goes to the other target', async () => {
    const controls = await call('get_controls')
    expect(controls.structured.routes).toEqual([
      expect.objectContaining({ route: '/api', target: 'local', targets: expect.any(Array) }),
    ])
    expect(controls.text).toContain(
      `- /api; target local (local ${dev.local.url}/, staging ${dev.staging.url}/); no faults`,
    )

    const switched = await call('switch_target', { route: '/api', target: 'staging' })
    expect(switched.structured).toMatchObject({ route: { route: '/api', target: 'staging' } })
    expect(JSON.parse((await dev.call('/api/who')).body.toString())).toMatchObject({ backend: 'staging' })

    const unknown = await call('switch_target', { route: '/api', target: 'prod' })
    expect(unknown).toMatchObject({ isError: true })
    expect(unknown.text).toContain(`route '/api' has no target "prod"; its targets: local, staging`)
    await call('switch_target', { route: '/api', target: 'local' })
    expect(JSON.parse((await dev.call('/api/who')).body.toString())).toMatchObject({ backend: 'local' })
  })

  it('set_faults fails the next requests on purpose, explain_failure says so, and off restores them', async () => {
    const on = await call('set_faults', { route: '/api', failRate: 1, failWith: 418 })
    expect(on.structured).toMatchObject({ route: { faultsOn: true, faults: { failRate: 1, failWith: 418 } } })
    expect(on.text).toContain('faults on: failRate 1 → 418')
    const failed = await dev.call('/api/teapot')
    expect(failed.status).toBe(418)
    const explained = await call('explain_failure', { id: await idOf('/api/teapot') })
    expect(explained.structured.exchange).toMatchObject({ kind: 'fault' })
    expect(explained.text).toContain('fix: switch them off: set_faults { "route": "/api", "on": false }')

    const off = await call('set_faults', { route: '/api', on: false })
    expect(off.structured).toMatchObject({ route: { faultsOn: false } })
    expect((await dev.call('/api/teapot')).status).toBe(200)
    const cleared = await call('set_faults', { route: '/api', failRate: null, on: true })
    expect(cleared.text).toContain('/api; target local')
    expect(cleared.text).toContain('no faults')

    const wrong = await call('set_faults', { route: '/nope', latency: 10 })
    expect(wrong).toMatchObject({ isError: true })
    expect(wrong.text).toContain('no route "/nope" with control options or recordings; routes: /api')
  })

  it('set_recording says what to do on a dev server without that switch', async () => {
    const { isError, text } = await call('set_recording', { route: '/api', on: true })
    expect(isError).toBe(true)
    expect(text).toBe(
      `the dev server at ${dev.url} has no recording switch for route '/api': set \`record: true\` on the route in its config and restart it`,
    )
  })
})

describe('cors-dev-proxy mcp without its dev server', () => {
  it('answers a tool error naming the URL and how to start it, and keeps serving', async () => {
    const { mcp: lone, client: loneClient, call: callLone } = await connect(DOWN_TARGET)
    try {
      expect(await lone.inspector.listen()).toBe(false)
      for (const tool of ['list_exchanges', 'get_controls']) {
        const answer = await callLone(tool)
        expect(answer.isError).toBe(true)
        expect(answer.text).toContain(
          `cannot reach the dev server at ${DOWN_TARGET} (connection refused): start it`,
        )
        expect(answer.text).toContain('cors-dev-proxy mcp --url http://localhost:5173')
      }
      expect((await callLone('get_exchange', { id: 1 })).isError).toBe(true)
    } finally {
      await loneClient.close()
      await lone.close()
    }
  })

  // Another server's 404, in text as Express writes it or in JSON as an API does: either way the
  // message says the URL names the wrong server, as docs/guide/mcp.md shows it.
  for (const [kind, type, body] of [
    ['text', 'text/plain', 'Not Found'],
    ['JSON', 'application/json', '{"error":"no such path"}'],
  ] as const) {
    it(`says when the server at the URL is not a dev server with cors-dev-proxy (a 404 in ${kind}), as the docs show`, async () => {
      const other = await listen(
        createServer((_req, res) => {
          res.writeHead(404, { 'content-type': type })
          res.end(body)
        }),
      )
      const { mcp: lone, client: loneClient, call: callLone } = await connect(other.url)
      try {
        const answer = await callLone('list_exchanges')
        expect(answer.isError).toBe(true)
        expect(answer.text).toBe(
          `${other.url} answered 404 to GET /__cors-dev-proxy/exchanges: is it the dev server that runs cors-dev-proxy (check the port), and is cors-dev-proxy in its config?`,
        )
        const documented = documentedMessage('is it the dev server that runs cors-dev-proxy')
        expect(readsAsDocumented(documented, answer.text), `the docs show: ${documented}`).toBe(true)
        expect(await callLone('get_controls')).toMatchObject({
          isError: true,
          text: expect.stringContaining('is it the dev server that runs cors-dev-proxy'),
        })
      } finally {
        await loneClient.close()
        await lone.close()
        await other.close()
      }
    })
  }

  it("keeps cors-dev-proxy's own 404 in JSON as it is (a route without live switches)", async () => {
    const answer = await call('switch_target', { route: '/nowhere', target: 'other' })
    expect(answer.isError).toBe(true)
    expect(answer.text).toContain('no route "/nowhere"')
    expect(answer.text).not.toContain('is it the dev server that runs cors-dev-proxy')
  })
})

describe("mcp.md's table of failures", () => {
  // Each row's message, as the tool prints it on a dev server (or a server) that fails that way.
  it('shows each message as a tool prints it', async () => {
    const page = readFileSync(new URL('../../../../docs/guide/mcp.md', import.meta.url), 'utf8')
    const section = page.slice(page.indexOf('## When a tool fails'))
    const table = section.slice(0, section.indexOf('\n## ') < 0 ? undefined : section.indexOf('\n## '))
    const documented = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] as string)
    expect(documented.length).toBeGreaterThanOrEqual(6)
    const printed: string[] = []
    const print = async (origin: string, tool: string, args: Record<string, unknown> = {}) => {
      const { mcp: lone, client: loneClient, call: callLone } = await connect(origin)
      try {
        const answer = await callLone(tool, args)
        // The page writes the dev server as http://localhost:5173.
        printed.push(answer.text.replaceAll(origin, 'http://localhost:5173'))
      } finally {
        await loneClient.close()
        await lone.close()
      }
    }
    // Nothing listens; another server; the inspector off; a host check's 403.
    await print(DOWN_TARGET, 'list_exchanges')
    const other = await listen(createServer((_req, res) => res.writeHead(404).end('Not Found')))
    await print(other.url, 'list_exchanges')
    await other.close()
    const off = createServer()
    const offProxy = createDevServerProxy(
      resolveOptions({ '/down': DOWN_TARGET }, { log: 'silent', inspector: false }),
      { server: off },
    )
    off.on('request', (req, res) => offProxy.middleware(req, res, () => res.writeHead(404).end()))
    const offServer = await listen(off)
    await print(offServer.url, 'list_exchanges')
    await print(offServer.url, 'get_controls')
    await offServer.close()
    await offProxy.close()
    const hostCheck = await listen(
      createServer((_req, res) => res.writeHead(403).end('Blocked request. This host is not allowed.')),
    )
    await print(hostCheck.url, 'list_exchanges')
    await hostCheck.close()
    // An exchange the inspector no longer keeps, on the dev server of the other tests.
    printed.push((await call('get_exchange', { id: 999_999 })).text.replace('#999999', '#12'))
    const unmatched = documented.filter((row) => !printed.some((text) => readsAsDocumented(row, text)))
    expect(unmatched, printed.join('\n')).toEqual([])
  })
})

describe('cors-dev-proxy mcp on an HTTPS dev server', () => {
  it("trusts its self-signed certificate on a loopback address (Vite's HTTP/2 with HTTP/1.1 fallback)", async () => {
    const { cert, key } = await localhostCertificate()
    const server = createSecureServer({ cert, key, allowHTTP1: true })
    const proxy = createDevServerProxy(resolveOptions({ '/down': DOWN_TARGET }, { log: 'silent' }), {
      server,
    })
    server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('app')))
    const front = await listen(server, 'https')
    const { mcp: secure, client: secureClient, call: callSecure } = await connect(front.url)
    try {
      await sendRequest(`${front.url}/down/x`)
      const answer = await callSecure('list_exchanges')
      expect(answer.isError).toBe(false)
      expect(answer.structured.exchanges).toEqual([expect.objectContaining({ url: '/down/x', status: 502 })])
      expect(await secure.inspector.listen()).toBe(true)
    } finally {
      await secureClient.close()
      await secure.close()
      await front.close()
      await proxy.close()
    }
  })
})

describe('get_controls on a dev server without switches', () => {
  it('says there are none: the dev server lists no route (it no longer answers 404)', async () => {
    const server = createServer()
    const proxy = createDevServerProxy(resolveOptions({ '/down': DOWN_TARGET }, { log: 'silent' }), {
      server,
    })
    server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('app')))
    const front = await listen(server)
    const { mcp: bare, client: bareClient, call: callBare } = await connect(front.url)
    try {
      const answer = await callBare('get_controls')
      expect(answer).toMatchObject({ isError: false, structured: { faultsOn: false, routes: [] } })
      expect(answer.text).toMatch(/^No switches: no route of this dev server has live switches/)
      expect(await callBare('switch_target', { route: '/down', target: 'staging' })).toMatchObject({
        isError: true,
        text: expect.stringContaining('no route of this dev server has live switches'),
      })
    } finally {
      await bareClient.close()
      await bare.close()
      await front.close()
      await proxy.close()
    }
  })
})

describe('set_recording where the dev server offers the switch', () => {
  it("posts { route, record } as the inspector's guard asks (the dev server's own Origin, JSON) and shows the state", async () => {
    // A stand-in for the record switch of /control (GET: `record` per route, `null` where it cannot
    // record; POST { route, record }), which another part of the work adds to the core.
    const posted: { origin: string | undefined; type: string | undefined; body: string }[] = []
    let record = false
    const view = () => ({
      route: '/api',
      targets: [],
      target: null,
      faultsOn: false,
      faults: null,
      paths: [],
      record,
    })
    const stand = await listen(
      createServer((req, res) => {
        let body = ''
        req.on('data', (chunk: Buffer) => (body += chunk))
        req.on('end', () => {
          res.setHeader('content-type', 'application/json')
          if (req.method === 'POST') {
            posted.push({ origin: req.headers.origin, type: req.headers['content-type'], body })
            record = (JSON.parse(body) as { record: boolean }).record
            res.end(JSON.stringify(view()))
            return
          }
          if (req.url === '/__cors-dev-proxy/control')
            res.end(JSON.stringify({ faultsOn: false, routes: [view()] }))
          else res.end('[]')
        })
      }),
    )
    const { mcp: lone, client: loneClient, call: callLone } = await connect(stand.url)
    try {
      expect((await callLone('get_controls')).text).toContain('- /api; no faults; recording off')
      const answer = await callLone('set_recording', { route: '/api', on: true })
      expect(answer).toMatchObject({ isError: false, structured: { route: { route: '/api', record: true } } })
      expect(answer.text).toContain('/api; no faults; recording on')
      expect(posted).toEqual([
        {
          origin: stand.url,
          type: 'application/json',
          body: JSON.stringify({ route: '/api', record: true }),
        },
      ])
    } finally {
      await loneClient.close()
      await lone.close()
      await stand.close()
    }
  })
})
