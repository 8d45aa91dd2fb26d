import { createServer, type IncomingHttpHeaders } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink, listen, openRequest, sendRequest } from '../../../../test/support/servers.js'
import { checkCors } from '../../src/browser/check-cors.js'
import type { CorsDevProxyOptions, Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createDevServerProxy } from '../../src/proxy/dev-server-proxy.js'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A backend without CORS headers that remembers what it received. */
async function startBackend() {
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() })
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=server-secret; Path=/' })
      res.end(JSON.stringify({ path: req.url }))
    })
  })
  const started = await listen(server)
  cleanup.push(() => started.close())
  return Object.assign(started, { received })
}

/** A bare `http` dev server with the set-up: what the proxy passes on is answered 299. */
async function startDevServer(routes: Routes, options: CorsDevProxyOptions = {}) {
  const server = createServer()
  const proxy = createDevServerProxy(resolveOptions(routes, options), { sink: captureLogSink(), server })
  server.on('request', (req, res) =>
    proxy.middleware(req, res, () => {
      res.statusCode = 299
      res.end('dev server')
    }),
  )
  const front = await listen(server)
  cleanup.push(async () => {
    await front.close()
    await proxy.close()
  })
  return front
}

const json = (body: Buffer) => JSON.parse(body.toString()) as unknown

/**
 * A backend that counts every request: its preflights pass (this origin, DELETE and PUT allowed),
 * its other answers have no Access-Control-Allow-Origin, so every call from a page fails.
 */
async function startCountingBackend() {
  const received: string[] = []
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`)
    if (req.url === '/moved') {
      res.writeHead(307, { location: '/items', 'access-control-allow-origin': String(req.headers.origin) })
      res.end()
      return
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': String(req.headers.origin),
        'access-control-allow-methods': 'DELETE, PUT',
        'access-control-allow-headers': 'content-type',
      })
      res.end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('changed')
  })
  const started = await listen(server)
  cleanup.push(() => started.close())
  return Object.assign(started, { received })
}

/** Asks `explain` about a call, as the overlay's client does from a page of `front`. */
async function explainOn(front: string, call: Record<string, unknown>) {
  const answer = await sendRequest(`${front}/__cors-dev-proxy/explain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: front },
    body: JSON.stringify({ headers: [], credentials: 'same-origin', initiator: 'fetch', ...call }),
  })
  return { status: answer.status, body: json(answer.body) as Record<string, unknown> }
}

describe('the endpoints under /__cors-dev-proxy/', () => {
  it('list exchanges masked, stream them, copy bodies only while a client listens, and replay with the original headers', async () => {
    const backend = await startBackend()
    const front = await startDevServer(
      { '/api': backend.url },
      { inspector: { exchanges: 50, bodyLimit: 1024 } },
    )
    const secret = { authorization: 'Bearer top-secret', cookie: 'sid=cookie-secret' }

    await sendRequest(`${front.url}/api/before?token=query-secret`, {
      method: 'POST',
      headers: secret,
      body: 'first',
    })
    const before = json((await sendRequest(`${front.url}/__cors-dev-proxy/exchanges`)).body) as Record<
      string,
      unknown
    >[]
    expect(before).toHaveLength(1)
    expect(before[0]).toMatchObject({
      method: 'POST',
      url: '/api/before?token=[masked]',
      upstreamUrl: `${backend.url}/before?token=[masked]`,
      upstreamProtocol: 'http/1.1',
      clientProtocol: 'http/1.1',
      status: 200,
      cors: { outcome: 'same-origin' },
    })
    expect(before[0]?.requestBody).toBeUndefined()
    expect(typeof before[0]?.ttfb).toBe('number')
    expect(before[0]?.requestBytes).toBe(5)

    // An inspector connects: bodies are copied from now on, and the exchange arrives live.
    const events = await openRequest(`${front.url}/__cors-dev-proxy/events`)
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    let streamed = ''
    const arrived = new Promise<void>((resolve) =>
      events.on('data', (chunk: Buffer) => {
        streamed += chunk.toString()
        if (streamed.includes('"/api/during"')) resolve()
      }),
    )
    await sendRequest(`${front.url}/api/during`, { method: 'POST', headers: secret, body: 'second body' })
    await arrived
    // A credential in a JSON body is masked too; the record keeps it for replay.
    await sendRequest(`${front.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"ada","password":"body-secret"}',
    })
    events.destroy()
    const list = json((await sendRequest(`${front.url}/__cors-dev-proxy/exchanges`)).body) as Record<
      string,
      unknown
    >[]
    const during = list.find((view) => view.url === '/api/during')
    expect(during).toMatchObject({ requestBody: 'second body', responseBody: '{"path":"/during"}' })
    const everything = `${streamed}${JSON.stringify(list)}${(await sendRequest(`${front.url}/__cors-dev-proxy/har`)).body}`
    expect(list.find((view) => view.url === '/api/login')).toMatchObject({
      requestBody: '{"user":"ada","password":"[masked]"}',
    })
    for (const value of ['top-secret', 'cookie-secret', 'query-secret', 'server-secret', 'body-secret']) {
      expect(everything).not.toContain(value)
    }

    // Replay resends the original headers and body; the replay is recorded as such.
    const replayed = await sendRequest(`${front.url}/__cors-dev-proxy/replay/${during?.id}`, {
      method: 'POST',
      headers: { origin: front.url },
    })
    expect(json(replayed.body)).toEqual({ replayOf: during?.id, status: 200 })
    const last = backend.received.at(-1)
    expect(last).toMatchObject({ url: '/during', body: 'second body' })
    expect(last?.headers.authorization).toBe('Bearer top-secret')
    expect(last?.headers['x-cors-dev-proxy-replay']).toBeUndefined()
    const after = json((await sendRequest(`${front.url}/__cors-dev-proxy/exchanges`)).body) as Record<
      string,
      unknown
    >[]
    expect(after.at(-1)).toMatchObject({ url: '/api/during', replayOf: during?.id })

    // A body that was not kept cannot be replayed.
    const refused = await sendRequest(`${front.url}/__cors-dev-proxy/replay/${before[0]?.id}`, {
      method: 'POST',
      headers: { origin: front.url },
    })
    expect(refused.status).toBe(409)
  })

  it('keep at most `exchanges` exchanges', async () => {
    const backend = await startBackend()
    const front = await startDevServer({ '/api': backend.url }, { inspector: { exchanges: 5 } })
    for (let index = 0; index < 40; index++) await sendRequest(`${front.url}/api/n${index}`)
    const list = json((await sendRequest(`${front.url}/__cors-dev-proxy/exchanges`)).body) as {
      url: string
    }[]
    expect(list.map((view) => view.url)).toEqual(['/api/n35', '/api/n36', '/api/n37', '/api/n38', '/api/n39'])
  })

  it('explain a failed call in Chromium words with the route to add; only to the dev server own pages', async () => {
    const backend = await startBackend()
    const front = await startDevServer({ '/': { mock: true } })
    const call = {
      url: `${backend.url}/items`,
      method: 'GET',
      headers: [],
      credentials: 'same-origin',
      initiator: 'fetch',
    }
    const explain = (headers: Record<string, string>, body: unknown = call) =>
      sendRequest(`${front.url}/__cors-dev-proxy/explain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    const model = await checkCors({ url: `${backend.url}/items`, origin: front.url })
    backend.received.length = 0
    const answer = await explain({ origin: front.url })
    expect(answer.status).toBe(200)
    expect(json(answer.body)).toMatchObject({
      kind: 'cors',
      message: model.message,
      route: `'/api': '${backend.url}'`,
      call: "fetch('/api/items')",
      routeExists: false,
      probed: true,
    })
    // The backend sets a cookie, which a call without credentials never stores.
    expect((json(answer.body) as { cookies: string[] }).cookies).toEqual([
      expect.stringContaining("cookie 'sid' is not stored: the call does not send credentials"),
    ])
    // The probe is the preflight-free GET the browser sent, and only to the URL of the call.
    expect(backend.received.map((request) => request.url)).toEqual(['/items'])
    expect((await explain({ origin: 'http://evil.example' })).status).toBe(403)
    expect((await explain({})).status).toBe(403)
    expect((await explain({ origin: front.url, 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await explain({ origin: front.url }, { ...call, url: 'file:///etc/passwd' })).status).toBe(400)
    expect((await explain({ origin: front.url }, 'not json')).status).toBe(400)
    expect(backend.received).toHaveLength(1)
  })

  it('explain: the route named fits the initiator, is printed as written, and counts every loopback name as one host', async () => {
    const backend = await startBackend()
    const port = new URL(backend.url).port
    const live = `ws://localhost:${port}`
    const rest = `http://[::1]:${port}/`
    const front = await startDevServer({ '/live': live, '/other': { mock: true } })
    const explain = async (url: string, initiator: string) => {
      const answer = await sendRequest(`${front.url}/__cors-dev-proxy/explain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: front.url },
        body: JSON.stringify({ url, method: 'GET', headers: [], credentials: 'same-origin', initiator }),
      })
      expect(answer.status).toBe(200)
      return json(answer.body) as { route: string; call: string; routeExists: boolean }
    }
    // The ws:// route is not a fetch's: a new HTTP route, with the scheme the call has.
    expect(await explain(`http://127.0.0.1:${port}/items`, 'fetch')).toMatchObject({
      route: `'/api': 'http://127.0.0.1:${port}'`,
      call: "fetch('/api/items')",
      routeExists: false,
    })
    expect(await explain(`ws://127.0.0.1:${port}/feed`, 'WebSocket')).toMatchObject({
      route: `'/live': '${live}'`,
      call: "new WebSocket('/live/feed')",
      routeExists: true,
    })
    const both = await startDevServer({ '/live': live, '/rest': rest })
    const answer = await sendRequest(`${both.url}/__cors-dev-proxy/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: both.url },
      body: JSON.stringify({
        url: `http://localhost:${port}/items?q=1`,
        method: 'GET',
        headers: [],
        credentials: 'same-origin',
        initiator: 'XMLHttpRequest',
      }),
    })
    expect(json(answer.body)).toMatchObject({
      route: `'/rest': '${rest}'`,
      call: "xhr.open('GET', '/rest/items?q=1')",
      routeExists: true,
    })
  })

  it('are served ahead of a route on /; inspector: false keeps the overlay, overlay: false too leaves the path to the dev server', async () => {
    const backend = await startBackend()
    const both = await startDevServer({ '/': backend.url })
    expect((await sendRequest(`${both.url}/__cors-dev-proxy/`)).body.toString()).toContain(
      'cors-dev-proxy inspector',
    )
    // Without the slash too (Next redirects /x/ to /x before proxy.ts runs: no redirect back).
    const bare = await sendRequest(`${both.url}/__cors-dev-proxy`)
    expect(bare.status).toBe(200)
    expect(bare.body.toString()).toContain('cors-dev-proxy inspector')
    expect(backend.received).toEqual([])

    const overlayOnly = await startDevServer({ '/api': backend.url }, { inspector: false })
    expect((await sendRequest(`${overlayOnly.url}/__cors-dev-proxy/exchanges`)).status).toBe(404)
    const client = await sendRequest(`${overlayOnly.url}/__cors-dev-proxy/client.js`)
    expect(client.status).toBe(200)
    expect(client.headers['content-type']).toBe('text/javascript; charset=utf-8')
    // The served client is the function's own source, called: valid JavaScript.
    expect(() => new Function(client.body.toString())).not.toThrow()

    const neither = await startDevServer({ '/api': backend.url }, { inspector: false, overlay: false })
    const passed = await sendRequest(`${neither.url}/__cors-dev-proxy/client.js`)
    expect(passed.status).toBe(299)
  })

  it('never send a POST or DELETE again: a HEAD stands in, the verdict says it is inferred, a repeat sends nothing', async () => {
    const backend = await startCountingBackend()
    const front = await startDevServer({ '/': { mock: true } })
    const post = await explainOn(front.url, {
      url: `${backend.url}/items`,
      method: 'POST',
      headers: [['content-type', 'text/plain']],
    })
    expect(post.status).toBe(200)
    expect(post.body).toMatchObject({
      kind: 'cors',
      message: `Access to fetch at '${backend.url}/items' from origin '${front.url}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
      route: `'/api': '${backend.url}'`,
      call: "fetch('/api/items', { method: 'POST' })",
      probed: true,
      certainty: 'inferred',
      probe: {
        sent: ['HEAD'],
        notRepeated: 'POST',
        fromMemo: false,
        text: "probed with HEAD; the POST was not repeated; verdict inferred: the answer's CORS headers were read off a HEAD of the same URL",
      },
    })
    expect(backend.received).toEqual(['HEAD /items'])

    const remove = { url: `${backend.url}/items/1`, method: 'DELETE' }
    const deleted = await explainOn(front.url, remove)
    expect(deleted.body).toMatchObject({
      kind: 'cors',
      certainty: 'inferred',
      probe: { sent: ['OPTIONS', 'HEAD'], notRepeated: 'DELETE', fromMemo: false },
    })
    expect(String(deleted.body.message)).toContain("No 'Access-Control-Allow-Origin' header is present")
    expect(backend.received).toEqual(['HEAD /items', 'OPTIONS /items/1', 'HEAD /items/1'])

    // The same call again: the memo answers, nothing is sent.
    const again = await explainOn(front.url, remove)
    expect(again.body).toMatchObject({ kind: 'cors', message: deleted.body.message, probed: true })
    expect(again.body.probe).toMatchObject({ fromMemo: true, sent: ['OPTIONS', 'HEAD'] })
    expect(String((again.body.probe as { text: string }).text)).toMatch(
      /^the same call was explained \d+ s ago, nothing sent again; then: probed with OPTIONS and HEAD; the DELETE was not repeated/,
    )
    expect(backend.received).toHaveLength(3)

    // A preflight that refuses the method decides alone: exact, and no HEAD.
    const patch = await explainOn(front.url, { url: `${backend.url}/items/2`, method: 'PATCH' })
    expect(patch.body).toMatchObject({ kind: 'cors', certainty: 'exact', probe: { sent: ['OPTIONS'] } })
    expect(backend.received.slice(3)).toEqual(['OPTIONS /items/2'])
    expect(backend.received.filter((line) => !/^(OPTIONS|HEAD|GET) /.test(line))).toEqual([])

    // A redirect is not followed: only the URL the page called is probed.
    const moved = await explainOn(front.url, { url: `${backend.url}/moved`, method: 'GET' })
    expect(moved.body).toMatchObject({
      kind: 'undetermined',
      certainty: 'unknown',
      probed: true,
      probe: {
        sent: ['GET'],
        text: `probed with GET; the redirect to ${backend.url}/items was not followed; verdict unknown: what the redirect leads to decides`,
      },
    })
    expect(String(moved.body.cause)).toContain(
      `run cors-dev-proxy check ${backend.url}/moved --origin ${front.url} (it sends the call itself)`,
    )
    expect(backend.received.slice(4)).toEqual(['GET /moved'])

    // The inspector lists what was explained, newest first.
    const listed = json((await sendRequest(`${front.url}/__cors-dev-proxy/explanations`)).body) as {
      method: string
    }[]
    expect(listed.map((item) => item.method)).toEqual(['GET', 'PATCH', 'DELETE', 'POST'])
  })

  it('probe one host at most 10 times a minute: 200 explanations of one failing GET, then of 200 URLs', async () => {
    const backend = await startCountingBackend()
    const front = await startDevServer({ '/api': backend.url })
    const same = await Promise.all(
      Array.from({ length: 200 }, () => explainOn(front.url, { url: `${backend.url}/items`, method: 'GET' })),
    )
    expect(same.map((answer) => answer.status)).toEqual(Array(200).fill(200))
    expect(new Set(same.map((answer) => answer.body.message)).size).toBe(1)
    expect(
      same.filter((answer) => answer.body.probe && !(answer.body.probe as { fromMemo: boolean }).fromMemo),
    ).toHaveLength(1)
    expect(backend.received).toEqual(['GET /items'])

    const answers: Record<string, unknown>[] = []
    for (let index = 0; index < 200; index++) {
      const answer = await explainOn(front.url, { url: `${backend.url}/items?page=${index}`, method: 'GET' })
      expect(answer.status).toBe(200)
      answers.push(answer.body)
    }
    expect(backend.received.length).toBeLessThanOrEqual(10)
    expect(backend.received).toHaveLength(10)
    expect(answers.filter((answer) => answer.probed === true)).toHaveLength(9)
    const refused = answers.at(-1)
    expect(refused).toMatchObject({
      kind: 'not-probed',
      probed: false,
      certainty: 'unknown',
      route: `'/api': '${backend.url}'`,
      routeExists: true,
      call: "fetch('/api/items?page=199')",
      probe: { sent: [] },
    })
    expect(String(refused?.cause)).toContain(`already sent 10 probe requests to 127.0.0.1 recently`)
  })
})
