import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { runInNewContext } from 'node:vm'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import type { CorsDevProxyOptions, Routes } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A JSON API with a few awkward answers; records what reached it. */
async function startTarget() {
  const seen: string[] = []
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url}`)
      const path = new URL(req.url ?? '/', 'http://x').pathname
      const json = JSON.stringify({ path, text: 'a\u2028b' })
      if (path === '/gzip' || path === '/br') {
        res.setHeader('content-type', 'application/json; charset=utf-8')
        res.setHeader('content-encoding', path === '/gzip' ? 'gzip' : 'br')
        res.setHeader('etag', '"v1"')
        res.end(path === '/gzip' ? gzipSync(json) : brotliCompressSync(json))
      } else if (path === '/html') {
        res.setHeader('content-type', 'text/html')
        res.end('<h1>hello</h1>')
      } else if (path === '/missing') {
        res.statusCode = 404
        res.setHeader('content-type', 'application/problem+json')
        res.end('{"title":"not found"}')
      } else {
        res.setHeader('content-type', 'application/json')
        res.end(json)
      }
    }),
  )
  cleanup.push(started.close)
  return { ...started, seen }
}

async function startProxy(routes: Routes, options: CorsDevProxyOptions = {}, kind?: ProxyServerKind) {
  const running: RunningProxy = await serveProxy(routes, { log: 'silent', ...options }, kind)
  cleanup.push(running.close)
  return running
}

function run(script: string, callback: string): unknown[] {
  const calls: unknown[] = []
  runInNewContext(script, { [callback]: (value: unknown) => calls.push(value) })
  return calls
}

describe('a route with jsonp', () => {
  it("wraps the target's JSON answer", async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: true } })
    const res = await sendRequest(`${proxy.url}/api/users?page=2&callback=handle`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    const body = res.body.toString()
    expect(body).toBe(`/**/ typeof handle === 'function' && handle({"path":"/users","text":"a\\u2028b"});`)
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body))
    expect(run(body, 'handle')).toEqual([{ path: '/users', text: 'a\u2028b' }])
    expect(target.seen).toEqual(['GET /users?page=2&callback=handle'])
  })

  it.each(['gzip', 'br'])('decompresses a %s answer before wrapping it', async (encoding) => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: true } })
    const res = await sendRequest(`${proxy.url}/api/${encoding}?callback=cb`, {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers.etag).toBeUndefined()
    expect(run(res.body.toString(), 'cb')).toEqual([{ path: `/${encoding}`, text: 'a\u2028b' }])
  })

  it('keeps the status of a JSON error answer', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: true } })
    const res = await sendRequest(`${proxy.url}/api/missing?callback=cb`)
    expect(res.status).toBe(404)
    expect(run(res.body.toString(), 'cb')).toEqual([{ title: 'not found' }])
  })

  it('proxies requests without the parameter, and non-JSON answers, unchanged', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: { param: 'cb' } } })
    const plain = await sendRequest(`${proxy.url}/api/users?callback=x`)
    expect(plain.headers['content-type']).toBe('application/json')
    expect(JSON.parse(plain.body.toString())).toEqual({ path: '/users', text: 'a\u2028b' })
    const html = await sendRequest(`${proxy.url}/api/html?cb=x`)
    expect(html.headers['content-type']).toBe('text/html')
    expect(html.body.toString()).toBe('<h1>hello</h1>')
  })

  it('refuses other methods with 405 and invalid names with 400, before the target', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: true } })
    const post = await sendRequest(`${proxy.url}/api/users?callback=cb`, { method: 'POST', body: 'x' })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET')
    const bad = await sendRequest(`${proxy.url}/api/users?callback=${encodeURIComponent('x;alert(1)')}`)
    expect(bad.status).toBe(400)
    expect(bad.body.toString()).not.toContain('alert')
    expect(JSON.parse(bad.body.toString()).param).toBe('callback')
    expect(target.seen).toEqual([])
  })

  it('works with cors on the same route and for HTTP/2 clients', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, jsonp: true, cors: true } }, {}, 'h2')
    const res = await sendHttp2Request(`${proxy.url}/api/users?callback=cb`, {
      origin: 'http://localhost:5173',
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8')
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(run(res.body.toString(), 'cb')).toEqual([{ path: '/users', text: 'a\u2028b' }])
  })
})
