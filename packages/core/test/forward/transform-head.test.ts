// The head of an answer that `transformResponse` rewrote, as http-proxy-middleware's response
// interceptor gives it: the target's headers are on `res` first, and what the transform sets or
// removes there (or on `proxyRes.headers`) wins; every header that described the framing of the
// original body (length, encoding, trailers, digests) is dropped or recomputed for the new body.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import type { RouteOptions } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers with `answer` (head and body written by the test). */
async function target(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const started = await listen(createServer(answer))
  cleanup.push(started.close)
  return started.url
}

async function proxyTo(url: string, route: Omit<RouteOptions, 'target'>): Promise<RunningProxy> {
  const running = await serveProxy({ '/api': { target: url, ...route } }, { log: 'silent' })
  cleanup.push(running.close)
  return running
}

const html = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html', 'x-secret': 'target', 'x-kept': 'yes' })
  res.end('<p>hello</p>')
}

describe('the head of a transformed answer', () => {
  it('keeps what the transform set or removed on res over the target’s headers', async () => {
    const proxy = await proxyTo(await target(html), {
      transformResponse(body, _proxyRes, _req, res) {
        res.setHeader('content-type', 'text/plain; charset=utf-8')
        res.removeHeader('x-secret')
        res.setHeader('x-added', 'by the transform')
        return body.toString().replace(/<\/?p>/g, '')
      },
    })
    const res = await sendRequest(`${proxy.url}/api/page`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('hello')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.headers['x-secret']).toBeUndefined()
    expect(res.headers['x-added']).toBe('by the transform')
    expect(res.headers['x-kept']).toBe('yes')
    expect(res.headers['content-length']).toBe('5')
  })

  it('sees the target’s headers on res, as the interceptor does', async () => {
    let seen: unknown
    const proxy = await proxyTo(await target(html), {
      transformResponse(body, _proxyRes, _req, res) {
        seen = { type: res.getHeader('content-type'), secret: res.getHeader('x-secret') }
        return body
      },
    })
    await sendRequest(`${proxy.url}/api/page`)
    expect(seen).toEqual({ type: 'text/html', secret: 'target' })
  })

  it('still takes changes made on proxyRes.headers and proxyRes.statusCode', async () => {
    const proxy = await proxyTo(await target(html), {
      transformResponse(body, proxyRes) {
        proxyRes.headers['x-from-proxy-res'] = '1'
        delete proxyRes.headers['x-secret']
        proxyRes.statusCode = 203
        return body
      },
    })
    const res = await sendRequest(`${proxy.url}/api/page`)
    expect(res.status).toBe(203)
    expect(res.headers['x-from-proxy-res']).toBe('1')
    expect(res.headers['x-secret']).toBeUndefined()
  })

  it('takes a status the transform set on res', async () => {
    const proxy = await proxyTo(await target(html), {
      transformResponse(body, _proxyRes, _req, res) {
        res.statusCode = 201
        return body
      },
    })
    expect((await sendRequest(`${proxy.url}/api/page`)).status).toBe(201)
  })

  it('drops the trailers the original body announced (Node refused the head: 502)', async () => {
    const url = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', trailer: 'x-checksum' })
      res.write('chunked ')
      res.addTrailers({ 'x-checksum': 'abc' })
      res.end('body')
    })
    const proxy = await proxyTo(url, { transformResponse: (body) => body.toString().toUpperCase() })
    const res = await sendRequest(`${proxy.url}/api/t`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('CHUNKED BODY')
    expect(res.headers.trailer).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe('12')
  })

  it('drops the digests and the encoding of the original body', async () => {
    const url = await target((_req, res) => {
      const body = gzipSync('{"a":1}')
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-md5': 'Q2hlY2sgSW50ZWdyaXR5IQ==',
        digest: 'sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=',
        'content-digest': 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
        'repr-digest': 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
        'content-length': body.byteLength,
      })
      res.end(body)
    })
    const proxy = await proxyTo(url, {
      transformResponse: (body) => ({ ...JSON.parse(body.toString()), b: 2 }),
    })
    const res = await sendRequest(`${proxy.url}/api/j`)
    expect(JSON.parse(res.body.toString())).toEqual({ a: 1, b: 2 })
    for (const name of ['content-encoding', 'content-md5', 'digest', 'content-digest', 'repr-digest']) {
      expect(res.headers[name]).toBeUndefined()
    }
    expect(res.headers['content-length']).toBe(String(res.body.byteLength))
  })

  it('keeps a content type the transform chose when it returns an object', async () => {
    const proxy = await proxyTo(await target(html), {
      transformResponse(_body, _proxyRes, _req, res) {
        res.setHeader('content-type', 'application/vnd.api+json')
        return { data: [] }
      },
    })
    const res = await sendRequest(`${proxy.url}/api/page`)
    expect(res.headers['content-type']).toBe('application/vnd.api+json')
    expect(JSON.parse(res.body.toString())).toEqual({ data: [] })
  })

  it('gives an object it returns a JSON type otherwise', async () => {
    const proxy = await proxyTo(await target(html), { transformResponse: () => ({ ok: true }) })
    const res = await sendRequest(`${proxy.url}/api/page`)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})
