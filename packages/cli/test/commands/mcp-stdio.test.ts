// Test project: integration (runs the built CLI's mcp command as child processes, as an agent starts it)
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_BIN } from '../support/cli-process.js'
import {
  DOWN_TARGET,
  type InspectedDevServer,
  startInspectedDevServer,
} from '../support/inspected-dev-server.js'

/*
 * `cors-dev-proxy mcp` from dist/bin.js, in child processes: the MCP SDK's client over stdio as
 * an agent runs it, against a real dev server (node:http with the adapters' set-up) with real
 * backends. test/mcp/mcp-tools.test.ts tests each tool's answers in depth in the unit project,
 * mcp.test.ts the command's flags.
 */

let dev: InspectedDevServer
let client: Client
let transport: StdioClientTransport
const transportErrors: Error[] = []
let stderr = ''

type Answer = { text: string; structured: Record<string, unknown>; isError: boolean }

async function call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args })
  return {
    text: (result.content as { text: string }[]).map((part) => part.text).join('\n'),
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    isError: result.isError === true,
  }
}

beforeAll(async () => {
  dev = await startInspectedDevServer()
  // The URL from the variable the adapters publish in the dev server's process, as a tool started there finds it.
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp'],
    env: { CORS_DEV_PROXY_URL: dev.url, NO_COLOR: '1' },
    stderr: 'pipe',
  })
  const attached = new Promise<void>((resolve) => {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk
      if (stderr.includes('over stdio\n')) resolve()
    })
  })
  client = new Client({ name: 'agent', version: '1.0.0' })
  client.onerror = (error) => transportErrors.push(error)
  await client.connect(transport)
  // Attached to the event stream: the calls made from now on keep their bodies.
  await attached
  await dev.call('/api/users', { method: 'POST', body: '{"name":"Ada"}' })
  await dev.call('/down/users')
  await dev.call('/api/items', { headers: { origin: 'http://localhost:4000' } })
}, 30_000)

afterAll(async () => {
  await client?.close()
  await dev?.close()
})

describe('cors-dev-proxy mcp over stdio', () => {
  it('serves every tool from the built CLI, on the dev server its environment names', async () => {
    expect(stderr).toBe(`[cors-dev-proxy] mcp: serving the inspector of ${dev.url} over stdio\n`)
    const { tools } = await client.listTools()
    // The eight of the inspector and the control board, and list_violations (OpenAPI checks).
    expect(tools).toHaveLength(9)
    expect(tools.map((tool) => tool.name)).toContain('list_violations')

    const list = await call('list_exchanges', { failedOnly: true })
    const failed = list.structured.exchanges as [{ id: number; url: string }, { id: number; url: string }]
    expect(failed.map((exchange) => exchange.url)).toEqual(['/api/items', '/down/users'])
    const [blocked, down] = failed

    const why = await call('explain_failure', { id: down.id })
    expect(why.text).toContain(`cause: connection refused: is the server at ${DOWN_TARGET} running?`)
    expect((await call('explain_failure', { id: blocked.id })).text).toContain(
      "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    )

    const all = (await call('list_exchanges')).structured.exchanges as { id: number; url: string }[]
    const posted = all.find((exchange) => exchange.url === '/api/users') as { id: number }
    expect((await call('get_exchange', { id: posted.id })).structured.exchange).toMatchObject({
      method: 'POST',
      status: 200,
      requestBody: '{"name":"Ada"}',
    })
    expect((await call('replay_exchange', { id: posted.id })).structured).toMatchObject({
      replayOf: posted.id,
      status: 200,
    })

    expect((await call('get_controls')).structured).toMatchObject({
      routes: [{ route: '/api', target: 'local' }],
    })
    expect((await call('switch_target', { route: '/api', target: 'staging' })).isError).toBe(false)
    expect(JSON.parse((await dev.call('/api/who')).body.toString())).toMatchObject({ backend: 'staging' })

    expect((await call('set_faults', { route: '/api', failRate: 1, failWith: 503 })).isError).toBe(false)
    expect((await dev.call('/api/who')).status).toBe(503)
    expect((await call('set_faults', { route: '/api', on: false })).isError).toBe(false)
    expect((await dev.call('/api/who')).status).toBe(200)

    expect((await call('set_recording', { route: '/api', on: true })).text).toContain('record: true')
    // Nothing but the protocol on stdout: the client read every line as a JSON-RPC message.
    expect(transportErrors).toEqual([])
  })

  it('survives a dev server that is not there, writes only the protocol to stdout, and ends with stdin', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--url', DOWN_TARGET], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    })
    let childErr = ''
    child.stderr.on('data', (chunk: Buffer) => (childErr += chunk))
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>

    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    expect(await next()).toMatchObject({ id: 1, result: { serverInfo: { name: 'cors-dev-proxy' } } })
    send({ method: 'notifications/initialized' })
    for (const id of [2, 3]) {
      send({ id, method: 'tools/call', params: { name: 'list_exchanges', arguments: {} } })
      const answer = (await next()) as {
        id: number
        result: { isError: boolean; content: { text: string }[] }
      }
      expect(answer).toMatchObject({ id, result: { isError: true } })
      expect(answer.result.content[0]?.text).toContain(
        `cannot reach the dev server at ${DOWN_TARGET} (connection refused): start it`,
      )
    }
    child.stdin.end()
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(childErr).toBe(
      `[cors-dev-proxy] mcp: serving the inspector of ${DOWN_TARGET} over stdio (not reachable now: each tool call tries again)\n`,
    )
  })
})
