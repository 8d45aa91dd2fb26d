import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { requestedOrigin } from '../../src/http/request-origin.js'
import type { Routes } from '../../src/index.js'

const PAGE = 'http://127.0.0.1:3000'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A backend that knows nothing of CORS, except on `/open` (any origin) and `/star` (`*`). */
async function startTarget() {
  const seen: string[] = []
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url}`)
      if (req.url === '/open') res.setHeader('access-control-allow-origin', req.headers.origin ?? '*')
      if (req.url === '/star') res.setHeader('access-control-allow-origin', '*')
      res.statusCode = req.method === 'OPTIONS' ? 404 : 200
      res.end('{}')
    }),
  )
  cleanup.push(started.close)
  return { ...started, seen }
}

async function startProxy(routes: Routes, kind?: ProxyServerKind) {
  const sink = captureLogSink()
  const running: RunningProxy = await serveProxy(routes, { logger: sink, log: 'warn' }, kind)
  cleanup.push(running.close)
  const corsLines = () =>
    sink.lines.filter((line) => line.message.includes('has been blocked by CORS policy'))
  return { ...running, sink, corsLines }
}

describe('CORS diagnostics of routes without cors', () => {
  it("logs once per cause, in Chromium's words with the fix, when the browser will block the answer", async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url })
    for (let i = 0; i < 3; i++) {
      const res = await sendRequest(`${proxy.url}/api/users`, { headers: { origin: PAGE } })
      expect(res.status).toBe(200)
    }
    const lines = proxy.corsLines()
    expect(lines).toHaveLength(1)
    expect(lines[0]!.level).toBe('warn')
    expect(lines[0]!.message).toContain(
      `GET /api/users from ${PAGE}: the browser will refuse this answer to the page (route '/api' has no \`cors\`)`,
    )
    expect(lines[0]!.message).toContain(
      `Access to fetch at '${proxy.url}/api/users' from origin '${PAGE}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    )
    expect(lines[0]!.message).toMatch(
      /\n {2}Fix: send `Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:3000`/,
    )
  })

  it('reports a forwarded preflight the target answers 404', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url })
    const res = await sendRequest(`${proxy.url}/api/users`, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'PUT' },
    })
    expect(res.status).toBe(404)
    expect(proxy.corsLines().map((line) => line.message)).toEqual([
      expect.stringContaining(
        "blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      ),
    ])
  })

  it('treats a request with cookies as credentialed', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url })
    await sendRequest(`${proxy.url}/api/star`, { headers: { origin: PAGE } })
    expect(proxy.corsLines()).toHaveLength(0)
    await sendRequest(`${proxy.url}/api/star`, { headers: { origin: PAGE, cookie: 'sid=1' } })
    expect(proxy.corsLines().map((line) => line.message)).toEqual([
      expect.stringContaining("must not be the wildcard '*'"),
    ])
  })

  it('says nothing for same-origin requests, allowed answers, requests without CORS, or origins a cors route allows', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url, '/cors': { target: target.url, cors: true } })
    await sendRequest(`${proxy.url}/api/users`, { headers: { origin: proxy.url } })
    // Same origin, spelled differently from the Host header.
    await sendRequest(`${proxy.url}/api/users`, { headers: { origin: `HTTP://127.0.0.1:${proxy.port}` } })
    await sendRequest(`${proxy.url}/api/users`)
    await sendRequest(`${proxy.url}/api/open`, { headers: { origin: PAGE } })
    // A cross-origin form post also sends Origin, but the browser applies no CORS check to it.
    await sendRequest(`${proxy.url}/api/users`, {
      method: 'POST',
      headers: { origin: PAGE, 'sec-fetch-mode': 'navigate' },
    })
    await sendRequest(`${proxy.url}/cors/users`, { headers: { origin: PAGE } })
    await sendRequest(`${proxy.url}/cors/users`, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'x-a',
      },
    })
    expect(proxy.corsLines()).toEqual([])
  })

  it('reports a wrong allow-origin, and a preflight missing the method or a header, each once', async () => {
    // A backend with a policy of its own: its own origin only on GET, and preflight answers
    // that allow the page's origin but only GET and content-type.
    const started = await listen(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        if (req.method === 'OPTIONS') {
          res.writeHead(204, {
            'access-control-allow-origin': req.headers.origin ?? '',
            'access-control-allow-methods': 'GET',
            'access-control-allow-headers': 'content-type',
          })
          res.end()
          return
        }
        res.setHeader('access-control-allow-origin', 'http://backend.test')
        res.end('{}')
      }),
    )
    cleanup.push(started.close)
    const proxy = await startProxy({ '/api': started.url })
    const preflight = (method: string, headers?: string) =>
      sendRequest(`${proxy.url}/api/items`, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': method,
          ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
        },
      })
    for (let i = 0; i < 2; i++) {
      expect((await sendRequest(`${proxy.url}/api/items`, { headers: { origin: PAGE } })).status).toBe(200)
      expect((await preflight('PUT')).status).toBe(204)
      expect((await preflight('GET', 'content-type,x-foo')).status).toBe(204)
    }
    // Allowed by this preflight answer: nothing to report.
    expect((await preflight('GET', 'content-type')).status).toBe(204)
    const blocked = `Access to fetch at '${proxy.url}/api/items' from origin '${PAGE}' has been blocked by CORS policy: `
    const lines = proxy.corsLines().map((line) => line.message.split('\n'))
    expect(lines.map((line) => line[1]?.trim())).toEqual([
      `${blocked}The 'Access-Control-Allow-Origin' header has a value 'http://backend.test' that is not equal to the supplied origin. Have the server send the header with a valid value.`,
      `${blocked}Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.`,
      `${blocked}Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.`,
    ])
    expect(lines.map((line) => line[2]?.trim())).toEqual([
      `Fix: allow the page's origin: send \`Access-Control-Allow-Origin: ${PAGE}\` instead of 'http://backend.test' (e.g. add '${PAGE}' to \`cors.origin\`)`,
      "Fix: add `PUT` to `cors.methods` (Access-Control-Allow-Methods), or add `cors: true` to route '/api' so that cors-dev-proxy answers the preflight",
      "Fix: add `x-foo` to `cors.allowedHeaders` (Access-Control-Allow-Headers), or add `cors: true` to route '/api' so that cors-dev-proxy answers the preflight",
    ])
  })

  it('knows its own origin on HTTP/2 over TLS', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url }, 'h2')
    await sendHttp2Request(`${proxy.url}/api/users`, { origin: proxy.url })
    expect(proxy.corsLines()).toEqual([])
    await sendHttp2Request(`${proxy.url}/api/users`, { origin: PAGE })
    expect(proxy.corsLines().map((line) => line.message)).toEqual([
      expect.stringContaining(`Access to fetch at '${proxy.url}/api/users' from origin '${PAGE}'`),
    ])
  })
})

describe('CORS diagnostics of routes with cors', () => {
  const blockedAt = (url: string, origin: string) =>
    `Access to fetch at '${url}' from origin '${origin}' has been blocked by CORS policy: `

  it('logs an origin the policy refuses once per route and cause every 10 s, with the fix naming it, and still proxies', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: true } })
    const lan = 'http://192.168.1.20:5173'
    for (let i = 0; i < 3; i++) {
      const res = await sendRequest(`${proxy.url}/api/users`, { headers: { origin: lan } })
      expect(res.status).toBe(200)
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
    }
    await sendRequest(`${proxy.url}/api/users`, { headers: { origin: 'https://other.test' } })
    const lines = () => proxy.sink.lines.map((line) => line.message.split('\n').map((part) => part.trim()))
    expect(lines()).toEqual([
      [
        `[cors-dev-proxy] GET /api/users from ${lan}: the browser will refuse this answer to the page (route '/api' has \`cors\`, whose policy does not allow it)`,
        `${blockedAt(`${proxy.url}/api/users`, lan)}No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
        `Fix: allow the page's origin in the \`cors\` option of route '/api', e.g. \`cors: { origin: (origin) => isLoopbackOrigin(origin) || origin === '${lan}' } (isLoopbackOrigin from '@cors-dev-proxy/core' keeps the localhost origins allowed)\``,
      ],
    ])
    // The two repeats and the other origin are the same cause on the same route: counted, not
    // printed (a page can forge any number of origins), and summed up when the proxy closes.
    await proxy.proxy.close()
    expect(lines()[1]).toEqual([
      expect.stringMatching(
        /^\[cors-dev-proxy\] GET \/api\/users from http:\/\/192\.168\.1\.20:5173: .* \(… and 3 more like it in the last \d+ s\)$/,
      ),
    ])
  })

  it('logs a preflight the policy answers without the method or a header', async () => {
    const target = await startTarget()
    const proxy = await startProxy({
      '/api': { target: target.url, cors: { methods: ['GET', 'POST'], allowedHeaders: ['content-type'] } },
    })
    const preflight = (method: string, headers: string) =>
      sendRequest(`${proxy.url}/api/items`, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
      })
    expect((await preflight('PUT', 'content-type')).status).toBe(204)
    expect((await preflight('POST', 'content-type,x-trace')).status).toBe(204)
    expect((await preflight('POST', 'content-type')).status).toBe(204)
    const lines = proxy.corsLines().map((line) => line.message.split('\n').map((part) => part.trim()))
    const blocked = blockedAt(`${proxy.url}/api/items`, PAGE)
    expect(lines.map((line) => line.slice(1))).toEqual([
      [
        `${blocked}Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.`,
        "Fix: add `PUT` to `methods` in the `cors` option of route '/api'",
      ],
      [
        `${blocked}Request header field x-trace is not allowed by Access-Control-Allow-Headers in preflight response.`,
        "Fix: add `x-trace` to `allowedHeaders` in the `cors` option of route '/api', or leave `allowedHeaders` unset to allow the headers the page asks for",
      ],
    ])
    // Preflights answered by the route itself: the target saw none of them.
    expect(target.seen).toEqual([])
  })

  it('still logs a refusal after allowed answers of the same policy decision were remembered', async () => {
    const target = await startTarget()
    const proxy = await startProxy({
      '/api': { target: target.url, cors: { methods: ['GET', 'POST'], allowedHeaders: ['content-type'] } },
    })
    const preflight = (method: string) =>
      sendRequest(`${proxy.url}/api/items`, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        },
      })
    for (let i = 0; i < 3; i++) await preflight('POST')
    await preflight('PUT')
    for (let i = 0; i < 3; i++) await sendRequest(`${proxy.url}/api/items`, { headers: { origin: PAGE } })
    await sendRequest(`${proxy.url}/api/items`, { headers: { origin: PAGE, cookie: 'session=1' } })
    const kinds = proxy.corsLines().map((line) => line.message.split('\n')[1]?.trim())
    const blocked = blockedAt(`${proxy.url}/api/items`, PAGE)
    expect(kinds).toEqual([
      `${blocked}Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.`,
      expect.stringContaining(
        "The value of the 'Access-Control-Allow-Credentials' header in the response is ''",
      ),
    ])
  })

  it('lists every header the policy refuses in the fix, not only the one the message names', async () => {
    const target = await startTarget()
    const proxy = await startProxy({
      '/api': { target: target.url, cors: { allowedHeaders: ['content-type'] } },
    })
    const res = await sendRequest(`${proxy.url}/api/items`, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,x-trace,x-zeta',
      },
    })
    expect(res.status).toBe(204)
    const [line] = proxy.corsLines().map((entry) => entry.message)
    expect(line).toContain('Request header field x-trace is not allowed')
    expect(line).toContain(
      "Fix: add `x-trace` and `x-zeta` to `allowedHeaders` in the `cors` option of route '/api'",
    )
  })

  it("logs a credentialed request answered with '*' or without Allow-Credentials", async () => {
    const target = await startTarget()
    const proxy = await startProxy({
      '/star': { target: target.url, cors: { origin: '*' } },
      '/plain': { target: target.url, cors: true },
    })
    await sendRequest(`${proxy.url}/star/me`, { headers: { origin: PAGE, cookie: 'sid=1' } })
    await sendRequest(`${proxy.url}/plain/me`, { headers: { origin: PAGE, cookie: 'sid=1' } })
    // Without cookies nothing says the request is credentialed: both are allowed.
    await sendRequest(`${proxy.url}/star/me`, { headers: { origin: PAGE } })
    const lines = proxy.corsLines().map((line) => line.message.split('\n').map((part) => part.trim()))
    expect(lines.map((line) => line[1])).toEqual([
      expect.stringContaining(
        "must not be the wildcard '*' when the request's credentials mode is 'include'.",
      ),
      expect.stringContaining(
        "The value of the 'Access-Control-Allow-Credentials' header in the response is ''",
      ),
    ])
    expect(lines.map((line) => line[2])).toEqual([
      `Fix: the page sends credentials, which \`*\` never allows: answer with its origin instead, e.g. \`cors: { origin: ['${PAGE}'], credentials: true }\` in the \`cors\` option of route '/star'`,
      "Fix: the page sends credentials: add `credentials: true` to the `cors` option of route '/plain'",
    ])
  })
})

describe('requestedOrigin', () => {
  it('uses Host and the connection scheme', () => {
    const req = { headers: { host: 'localhost:5173' }, socket: { encrypted: true } }
    expect(requestedOrigin(req as never)).toBe('https://localhost:5173')
    expect(requestedOrigin({ headers: { ':authority': 'a.test' }, socket: {} } as never)).toBe(
      'http://a.test',
    )
    expect(requestedOrigin({ headers: {}, socket: {} } as never)).toBeUndefined()
  })
})
