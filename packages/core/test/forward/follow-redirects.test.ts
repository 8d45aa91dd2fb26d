import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { captureLogSink, collectBody, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createCorsDevProxy, type Routes } from '../../src/index.js'

// `followRedirects: true` (http-proxy's option, opt-in): redirects followed on the server side
// with the browser's rules (Fetch standard, HTTP-redirect fetch; RFC 9110 section 15.4).

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/**
 * A target: `/status/<code>?to=<url>` redirects there with that status, `/loop/<n>` redirects to
 * `/loop/<n+1>`, anything else answers what it saw as JSON.
 */
async function startTarget() {
  const seen: Seen[] = []
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = (await collectBody(req)).toString()
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    const url = new URL(req.url ?? '/', 'http://x')
    const redirect = /^\/status\/(\d+)$/.exec(url.pathname)
    if (redirect !== null) {
      res.writeHead(Number(redirect[1]), { location: url.searchParams.get('to') ?? '/end' })
      res.end()
      return
    }
    const loop = /^\/loop\/(\d+)$/.exec(url.pathname)
    if (loop !== null) {
      const n = Number(loop[1])
      res.writeHead(n >= Number(url.searchParams.get('until') ?? 1e9) ? 200 : 302, {
        location: `/loop/${n + 1}${url.search}`,
      })
      res.end(`hop ${n}`)
      return
    }
    res.setHeader('content-type', 'application/json')
    res.setHeader('set-cookie', 'final=1')
    res.end(JSON.stringify({ method: req.method, url: req.url, body }))
  })
  const started = await listen(server)
  cleanup.push(started.close)
  return { ...started, seen }
}

async function startDevServer(routes: Routes) {
  const proxy = createCorsDevProxy(routes, { logger: captureLogSink() })
  const app = express()
  app.use('/parsed', express.json())
  app.use((req, res, next) => proxy.middleware(req, res, next))
  const started = await listen(createServer(app))
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return started
}

const json = { 'content-type': 'application/json' }

describe('followRedirects: true', () => {
  it('follows a 302 to another origin as a browser does: POST becomes GET without body, no credentials', async () => {
    const a = await startTarget()
    const b = await startTarget()
    const dev = await startDevServer({ '/api': { target: a.url, followRedirects: true } })
    const res = await sendRequest(`${dev.url}/api/status/302?to=${encodeURIComponent(`${b.url}/landing`)}`, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer secret', cookie: 'sid=1', 'x-keep': 'yes' },
      body: '{"a":1}',
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET', url: '/landing', body: '' })
    const [hop] = b.seen
    expect(hop?.headers.authorization).toBeUndefined()
    expect(hop?.headers.cookie).toBeUndefined()
    expect(hop?.headers['x-keep']).toBe('yes')
    // Fetch: the request-body-header names go with the body.
    expect(hop?.headers['content-type']).toBeUndefined()
    expect(hop?.headers['content-length']).toBeUndefined()
    expect(hop?.headers.host).toBe(new URL(b.url).host)
    expect(a.seen[0]?.headers.authorization).toBe('Bearer secret')
  })

  it('keeps Authorization and Cookie on the same origin; a 303 becomes GET without the Content-* fields', async () => {
    const a = await startTarget()
    const dev = await startDevServer({ '/api': { target: a.url, followRedirects: true } })
    const res = await sendRequest(`${dev.url}/api/status/303?to=/seen`, {
      method: 'PUT',
      headers: { ...json, authorization: 'Bearer secret', cookie: 'sid=1' },
      body: '{"a":1}',
    })
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET', url: '/seen', body: '' })
    const hop = a.seen[1]
    expect(hop?.headers.authorization).toBe('Bearer secret')
    expect(hop?.headers.cookie).toBe('sid=1')
    expect(hop?.headers['content-type']).toBeUndefined()
  })

  it('sends a parsed body again after a 307 (method and body kept)', async () => {
    const a = await startTarget()
    const dev = await startDevServer({ '/parsed': { target: a.url, followRedirects: true } })
    const res = await sendRequest(`${dev.url}/parsed/status/307?to=/again`, {
      method: 'POST',
      headers: json,
      body: '{"a":1}',
    })
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', url: '/again', body: '{"a":1}' })
  })

  it('follows 20 redirects and answers 502 for the 21st, as the browser stops there', async () => {
    const a = await startTarget()
    const dev = await startDevServer({ '/api': { target: a.url, followRedirects: true } })
    const twenty = await sendRequest(`${dev.url}/api/loop/0?until=20`)
    expect(twenty.status).toBe(200)
    expect(twenty.body.toString()).toBe('hop 20')
    const more = await sendRequest(`${dev.url}/api/loop/0?until=21`)
    expect(more.status).toBe(502)
    expect(more.body.toString()).toContain('too many redirects')
  })

  it('relays redirects to the browser by default (rewritten to the dev server)', async () => {
    const a = await startTarget()
    const dev = await startDevServer({ '/api': a.url })
    const res = await sendRequest(`${dev.url}/api/status/302?to=/end`)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/api/end')
  })

  it('takes a number of redirects from 1 to 20 and refuses anything else', () => {
    expect(
      resolveOptions({ '/api': { target: 'http://localhost:3000', followRedirects: 5 } }).routes[0],
    ).toMatchObject({
      followRedirects: 5,
    })
    expectConfigError(
      () => resolveOptions({ '/api': { target: 'http://localhost:3000', followRedirects: 50 } }),
      {
        code: 'INVALID_OPTION',
        option: "routes['/api'].followRedirects",
        contains: ['from 1 to 20'],
      },
    )
  })
})
