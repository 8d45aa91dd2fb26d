import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendHttp2Request, sendRequest } from '../../../test/support/servers.js'
import { requestedOrigin } from '../src/cors/cors-diagnostics.js'
import type { Routes } from '../src/index.js'

const PAGE = 'http://127.0.0.1:3000'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A backend that knows nothing of CORS, except on `/open` (any origin) and `/star` (`*`). */
async function startTarget() {
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/open') res.setHeader('access-control-allow-origin', req.headers.origin ?? '*')
      if (req.url === '/star') res.setHeader('access-control-allow-origin', '*')
      res.statusCode = req.method === 'OPTIONS' ? 404 : 200
      res.end('{}')
    }),
  )
  cleanup.push(started.close)
  return started
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

  it('says nothing for same-origin requests, allowed answers, or routes with cors', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url, '/cors': { target: target.url, cors: true } })
    await sendRequest(`${proxy.url}/api/users`, { headers: { origin: proxy.url } })
    // Same origin, spelled differently from the Host header.
    await sendRequest(`${proxy.url}/api/users`, { headers: { origin: `HTTP://127.0.0.1:${proxy.port}` } })
    await sendRequest(`${proxy.url}/api/users`)
    await sendRequest(`${proxy.url}/api/open`, { headers: { origin: PAGE } })
    await sendRequest(`${proxy.url}/cors/users`, { headers: { origin: 'https://evil.test' } })
    expect(proxy.corsLines()).toEqual([])
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
