import { connect, constants } from 'node:http2'
import { Readable } from 'node:stream'
import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { localhostCertificate } from '../../../../../test/support/tls.js'
import { parseBody, searchParamsToObject } from '../../../src/stand-ins/mock-backend/mock-echo.js'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

describe('parseBody', () => {
  it.each([
    ['application/json', '{"a":[1,2]}', { a: [1, 2] }],
    ['application/json; charset=utf-8', '"x"', 'x'],
    ['Application/JSON', '42', 42],
    ['application/problem+json', '{"title":"t"}', { title: 't' }],
    ['application/json', '{broken', '{broken'],
    ['application/x-www-form-urlencoded', 'a=1&b=2&a=3&c=%20d', { a: ['1', '3'], b: '2', c: ' d' }],
    ['text/plain', 'hello', 'hello'],
    [undefined, 'raw', 'raw'],
    ['application/json', '', null],
  ])('%s %j', (contentType, text, expected) => {
    expect(parseBody(contentType, Buffer.from(text))).toEqual(expected)
  })

  it('turns repeated parameters into arrays', () => {
    expect(searchParamsToObject(new URLSearchParams('a=1&a=2&a=3&b='))).toEqual({ a: ['1', '2', '3'], b: '' })
  })
})

describe('echo through a real server', () => {
  let mock: RunningMockBackend | undefined
  const agent = new Agent()
  afterEach(async () => {
    await mock?.close()
    mock = undefined
  })

  it('echoes method, path, query, headers, origin, cookies, a JSON body and the protocol', async () => {
    mock = await startMockBackend()
    const body = JSON.stringify({ name: 'ada', tags: ['x'] })
    const res = await request(`${mock.origin}/users/7?q=1&q=2&x=y`, {
      method: 'PUT',
      headers: {
        origin: 'http://localhost:5173',
        'content-type': 'application/json',
        cookie: 'a=1; b=two',
        'x-foo': 'bar',
      },
      body,
      dispatcher: agent,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const echo = (await res.body.json()) as Record<string, unknown>
    expect(echo).toMatchObject({
      method: 'PUT',
      path: '/users/7',
      query: { q: ['1', '2'], x: 'y' },
      origin: 'http://localhost:5173',
      cookies: { a: '1', b: 'two' },
      body: { name: 'ada', tags: ['x'] },
      bodyBytes: Buffer.byteLength(body),
      protocol: 'http/1.1',
      secure: false,
    })
    expect(echo.headers).toMatchObject({ 'x-foo': 'bar', 'content-type': 'application/json' })
  })

  it('echoes a body without a type as text and reports a missing origin as null', async () => {
    mock = await startMockBackend()
    const res = await request(`${mock.origin}/m`, { method: 'PATCH', body: 'a=1', dispatcher: agent })
    expect(await res.body.json()).toMatchObject({ method: 'PATCH', origin: null, body: 'a=1', bodyBytes: 3 })
  })

  it('answers 413 to a body announced larger than the limit, and the client can read it', async () => {
    mock = await startMockBackend({ bodyLimit: 1000 })
    const res = await request(`${mock.origin}/upload`, {
      method: 'POST',
      body: Buffer.alloc(5000, 97),
      dispatcher: agent,
    })
    expect(res.statusCode).toBe(413)
    expect(await res.body.json()).toEqual({ error: 'the mock backend reads bodies up to 1000 bytes' })
  })

  it('answers 413 to a streamed body that grows past the limit, without buffering it', async () => {
    mock = await startMockBackend({ bodyLimit: 1000 })
    async function* chunks() {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(200, 98)
    }
    const res = await request(`${mock.origin}/upload`, {
      method: 'POST',
      body: Readable.from(chunks()),
      dispatcher: agent,
    })
    expect(res.statusCode).toBe(413)
    await res.body.dump()
    // A body right at the limit is still accepted.
    const ok = await request(`${mock.origin}/upload`, {
      method: 'POST',
      body: Buffer.alloc(1000, 99),
      dispatcher: agent,
    })
    expect(await ok.body.json()).toMatchObject({ bodyBytes: 1000 })
  })

  it('reports h2 and secure when it runs on HTTP/2 over TLS', async () => {
    const { cert, key } = await localhostCertificate()
    mock = await startMockBackend({ https: { cert, key }, http2: true })
    expect(mock.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const session = connect(mock.origin, { ca: cert })
    try {
      const stream = session.request({ ':method': 'POST', ':path': '/h2?z=1', 'content-type': 'text/plain' })
      stream.end('hello h2')
      const chunks: Buffer[] = []
      const status = await new Promise<number>((resolve, reject) => {
        stream.on('response', (headers) => resolve(Number(headers[constants.HTTP2_HEADER_STATUS])))
        stream.on('error', reject)
      })
      for await (const chunk of stream) chunks.push(chunk as Buffer)
      expect(status).toBe(200)
      const echo = JSON.parse(Buffer.concat(chunks).toString())
      expect(echo).toMatchObject({
        method: 'POST',
        path: '/h2',
        query: { z: '1' },
        body: 'hello h2',
        protocol: 'h2',
        secure: true,
      })
      expect(Object.keys(echo.headers).some((name) => name.startsWith(':'))).toBe(false)
    } finally {
      session.close()
    }
  })
})
