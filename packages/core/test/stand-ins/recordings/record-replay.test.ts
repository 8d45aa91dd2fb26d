import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../../test/support/refused-port.js'
import {
  captureLogSink,
  collectBody,
  listen,
  openRequest,
  sendRequest,
} from '../../../../../test/support/servers.js'

/*
 * Record through a real proxy with the target up, then replay with the target stopped
 * (`replay: 'fallback'`) and with `replay: 'only'`: real servers on 127.0.0.1 port 0, shared by
 * the file, in the order a developer goes through them.
 */

let dir: string
let listed = 0
const SECRET = 'Bearer s3cr3t-token'

/** The backend: numbered answers, JSON echo, GraphQL, an event stream, a cookie. */
function backend() {
  return createServer(async (req, res) => {
    const body = (await collectBody(req)).toString()
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/users') {
      listed++
      // Two lines of one field: both must be recorded and replayed, not only the last.
      res.setHeader('set-cookie', ['sid=cookie-value-123; Path=/; HttpOnly', 'theme=dark; Path=/'])
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ call: listed, page: url.searchParams.get('page') }))
    } else if (url.pathname === '/items') {
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ created: JSON.parse(body), password: 'p4ssw0rd' }))
    } else if (url.pathname === '/graphql') {
      const { operationName, variables } = JSON.parse(body) as { operationName: string; variables: unknown }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ data: { operationName, variables } }))
    } else if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      let sent = 0
      const timer = setInterval(() => {
        res.write(`data: event ${++sent}\n\n`)
        if (sent === 3) {
          clearInterval(timer)
          res.end()
        }
      }, 20)
    } else {
      res.statusCode = 404
      res.end('no such path')
    }
  })
}

const json = (text: string, extra: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...extra },
  body: text,
})

/** What the page of the test does, in order. */
const calls = [
  ['GET', '/api/users?page=1&sort=name', {}],
  ['GET', '/api/users?page=1&sort=name', {}],
  ['POST', '/api/items', json('{"name":"ada","tags":[1,2]}')],
  [
    'POST',
    '/api/graphql',
    json(
      '{"query":"query Me($id: ID!) { user(id: $id) { id } }","operationName":"Me","variables":{"id":"7"}}',
    ),
  ],
  ['GET', '/api/events', {}],
] as const

const recorded: string[] = []
let target: Awaited<ReturnType<typeof listen>>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-record-replay-'))
  target = await listen(backend())
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true } },
    { log: 'silent', recordings: { dir, maxGap: 200 } },
  )
  for (const [method, path, init] of calls) {
    const headers = {
      authorization: SECRET,
      cookie: 'sid=cookie-value-123',
      ...('headers' in init ? init.headers : {}),
    }
    const answer = await sendRequest(`${proxy.url}${path}`, { ...init, method, headers })
    recorded.push(answer.body.toString())
  }
  // A recording is on disk when close() resolves.
  await proxy.close()
  await target.close()
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function recordingFiles(): Promise<string[]> {
  return (await readdir(join(dir, 'api'))).sort()
}

describe('record', () => {
  it('writes one file per distinct request, the answers of a repeated one in order', async () => {
    const files = await recordingFiles()
    expect(files).toHaveLength(4)
    const users = files.find((name) => name.startsWith('GET-users.')) as string
    const file = JSON.parse(await readFile(join(dir, 'api', users), 'utf8'))
    expect(file.request).toEqual({ method: 'GET', path: '/users?page=1&sort=name' })
    expect(file.answers.map((answer: { body: { json: unknown } }) => answer.body.json)).toEqual([
      { call: 1, page: '1' },
      { call: 2, page: '1' },
    ])
    const events = files.find((name) => name.startsWith('GET-events.')) as string
    const stream = JSON.parse(await readFile(join(dir, 'api', events), 'utf8'))
    expect(stream.answers[0].chunks.map((chunk: { text: string }) => chunk.text).join('')).toBe(
      'data: event 1\n\ndata: event 2\n\ndata: event 3\n\n',
    )
  })

  it("leaves out the proxy's own 502 for a target that is down, and a POST's body with it", async () => {
    const own = await mkdtemp(join(tmpdir(), 'cdp-record-down-'))
    try {
      const proxy = await serveProxy(
        { '/api': { target: await refusedUrl(), record: true } },
        { log: 'silent', recordings: { dir: own } },
      )
      const answer = await sendRequest(`${proxy.url}/api/items`, {
        ...json('{"name":"ada"}'),
        method: 'POST',
      })
      await proxy.close()
      expect(answer.status).toBe(502)
      expect(await readdir(own)).toEqual([])
    } finally {
      await rm(own, { recursive: true, force: true })
    }
  })

  it('holds no Authorization, cookie or password value', async () => {
    for (const name of await recordingFiles()) {
      const text = await readFile(join(dir, 'api', name), 'utf8')
      expect(text).not.toMatch(/s3cr3t|cookie-value-123|p4ssw0rd/)
    }
  })
})

describe("replay: 'fallback' with the target stopped", () => {
  let proxy: Awaited<ReturnType<typeof serveProxy>>
  /** The target, stopped: port 2 refuses, where the recording target's freed port could be taken again. */
  let down: string
  const sink = captureLogSink()
  beforeAll(async () => {
    down = await refusedUrl()
    proxy = await serveProxy(
      { '/api': { target: down, replay: 'fallback' } },
      { log: 'debug', logger: sink, recordings: { dir, maxGap: 200 } },
    )
  })
  afterAll(() => proxy.close())

  it('gives the same answers, marked replayed, the repeated request in order then the last', async () => {
    const answers: string[] = []
    for (const [method, path, init] of calls) {
      const answer = await sendRequest(`${proxy.url}${path}`, { ...init, method })
      expect(answer.headers['x-cors-dev-proxy-replayed']).toMatch(/^.*api[/\\].+\.json$/)
      answers.push(answer.body.toString())
    }
    expect(answers.map((text) => text.replaceAll('[masked]', 'p4ssw0rd'))).toEqual(recorded)
    const third = await sendRequest(`${proxy.url}/api/users?sort=name&page=1`)
    expect(JSON.parse(third.body.toString())).toEqual({ call: 2, page: '1' })
    const cookies = third.headers['set-cookie'] as string[]
    expect(cookies).toHaveLength(2)
    expect(cookies[0]).toMatch(/^sid=replayed-[0-9a-f]{32}; Path=\/; HttpOnly$/)
    // Every cookie's value is masked on disk, so each comes back as a fresh stand-in.
    expect(cookies[1]).toMatch(/^theme=replayed-[0-9a-f]{32}; Path=\/$/)
    expect(sink.text()).toContain(
      "route '/api': the target is unreachable; answering from the recordings (replay: 'fallback')",
    )
    expect(sink.text()).toMatch(/replayed GET \/api\/users\?page=1&sort=name from .*GET-users\./)
  })

  it('names the replay as what answered in the debug line, not the target that is down', async () => {
    sink.lines.length = 0
    const answer = await sendRequest(`${proxy.url}/api/items`, json('{"name":"ada","tags":[1,2]}'))
    expect(answer.status).toBe(201)
    const line = sink.lines
      .map((entry) => entry.message)
      .find((message) => message.includes('POST /api/items →'))
    expect(line).toMatch(/h1\.1 POST \/api\/items → replay \(target failed: connection refused\) 201 \d+ ms$/)
    expect(line).not.toContain(down)
  })

  it('matches JSON bodies as data and GraphQL calls by operation and variables', async () => {
    const item = await sendRequest(`${proxy.url}/api/items`, json('{ "tags": [1, 2], "name": "ada" }'))
    expect(item.status).toBe(201)
    const graphql = await sendRequest(
      `${proxy.url}/api/graphql`,
      json(
        '{"variables":{"id":"7"},"operationName":"Me","query":"query Me($id: ID!) {\\n  user(id: $id) { id name }\\n}"}',
      ),
    )
    expect(JSON.parse(graphql.body.toString())).toEqual({
      data: { operationName: 'Me', variables: { id: '7' } },
    })
    const other = await sendRequest(
      `${proxy.url}/api/graphql`,
      json('{"query":"q","operationName":"Me","variables":{"id":"8"}}'),
    )
    expect(other.status).toBe(504)
  })

  it('streams the recorded events in order, as they came', async () => {
    const res = await openRequest(`${proxy.url}/api/events`)
    expect(res.headers['content-type']).toBe('text/event-stream')
    const seen: string[] = []
    for await (const chunk of res) seen.push(String(chunk))
    expect(seen.join('')).toBe('data: event 1\n\ndata: event 2\n\ndata: event 3\n\n')
  })

  it('answers 504 for a request never recorded, naming the closest recording and how to record it', async () => {
    const answer = await sendRequest(`${proxy.url}/api/users/42`)
    expect(answer.status).toBe(504)
    const text = answer.body.toString()
    expect(text).toMatch(/no recording matches GET \/api\/users\/42/)
    expect(text).toMatch(/Closest recording: .*GET-users\.[0-9a-f]{16}\.json/)
    expect(text).toContain("set record: true on route '/api'")
    expect(text).toContain('cors-dev-proxy import-har file.har --route /api')
  })
})

describe("replay: 'fallback' with a target that times out", () => {
  it("replays once the route's timeout passes", async () => {
    const held = new Set<import('node:http').ServerResponse>()
    const slow = await listen(createServer((_req, res) => held.add(res)))
    const proxy = await serveProxy(
      { '/api': { target: slow.url, replay: 'fallback', timeout: 300 } },
      { log: 'silent', recordings: { dir } },
    )
    try {
      const answer = await sendRequest(`${proxy.url}/api/users?page=1&sort=name`)
      expect(answer.status).toBe(200)
      expect(answer.headers['x-cors-dev-proxy-replayed']).toBeDefined()
      expect(held.size).toBe(1)
    } finally {
      await proxy.close()
      await slow.close()
    }
  })
})

describe("replay: 'only'", () => {
  it('names the replay as what answered in the debug line', async () => {
    const sink = captureLogSink()
    const proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', replay: 'only' } },
      { log: 'debug', logger: sink, recordings: { dir } },
    )
    try {
      const answer = await sendRequest(`${proxy.url}/api/items`, json('{"name":"ada","tags":[1,2]}'))
      expect(answer.status).toBe(201)
      expect(sink.text()).toMatch(/h1\.1 POST \/api\/items → replay 201 \d+ ms/)
    } finally {
      await proxy.close()
    }
  })

  it('never contacts the target, and answers 404 when nothing matches', async () => {
    let reached = 0
    const live = await listen(
      createServer((_req, res) => {
        reached++
        res.end('live')
      }),
    )
    const proxy = await serveProxy(
      { '/api': { target: live.url, replay: 'only' } },
      { log: 'silent', recordings: { dir } },
    )
    try {
      const answer = await sendRequest(`${proxy.url}/api/items`, json('{"name":"ada","tags":[1,2]}'))
      expect(answer.status).toBe(201)
      expect(answer.headers['x-cors-dev-proxy-replayed']).toBeDefined()
      const missing = await sendRequest(`${proxy.url}/api/nothing`)
      expect(missing.status).toBe(404)
      expect(missing.body.toString()).toContain("route '/api' has replay: 'only'")
      expect(reached).toBe(0)
    } finally {
      await proxy.close()
      await live.close()
    }
  })
})

describe('the inspector', () => {
  it('marks a replayed exchange with the recording it came from', async () => {
    const { viewExchange } = await import('../../../src/inspector/exchange-view.js')
    const record = {
      id: 1,
      startedAt: 0,
      method: 'GET',
      url: '/api/users',
      host: 'localhost:5173',
      tls: false,
      route: '/api',
      clientProtocol: 'http/1.1',
      requestHeaders: ['Host', 'localhost:5173'],
      status: 200,
      upstreamUrl: undefined,
      upstreamProtocol: undefined,
      ttfb: 1,
      total: 2,
      responseHead:
        'HTTP/1.1 200 OK\r\nX-Cors-Dev-Proxy-Replayed: cors-dev-proxy/recordings/api/GET-users.0123456789abcdef.json\r\n\r\n',
      requestBytes: 0,
      responseBytes: 2,
      hooks: [],
      requestBody: undefined,
      responseBody: undefined,
      bodiesTruncated: false,
      aborted: false,
      replayOf: undefined,
    }
    expect(viewExchange(record).replayedFrom).toBe(
      'cors-dev-proxy/recordings/api/GET-users.0123456789abcdef.json',
    )
    expect(viewExchange({ ...record, responseHead: 'HTTP/1.1 200 OK\r\n\r\n' }).replayedFrom).toBeUndefined()
  })
})
