// Bodies a `proxyReq` hook changes reach the target byte for byte: http-proxy-middleware's
// `fixRequestBody` pattern (write the body a parser read), `req.body` edited after
// `express.json()`, a changed Content-Type on a parsed body, a wrong declared length; and a multipart body whose fields would inject into the
// request is refused with 400, nothing sent (the class of http-proxy-middleware's CVE-2026-55603).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../../../../test/support/servers.js'
import type { OutgoingProxyRequest } from '../../src/config/hook-options.js'
import { type CorsDevProxy, createCorsDevProxy, type ProxyRequest, type Routes } from '../../src/index.js'

interface Received {
  url: string
  contentType: string | undefined
  contentLength: string | undefined
  body: string
}

let target: StartedServer<Server>
let front: StartedServer<Server>
let proxy: CorsDevProxy
const sink = captureLogSink()
let received: Received[] = []

/** What a body parser does: reads the stream, leaves `req.body` and `_body` (as body-parser marks it). */
async function parse(req: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString()
  const type = req.headers['content-type'] ?? ''
  const parsed = req as IncomingMessage & { body?: unknown; _body?: boolean }
  parsed._body = true
  if (type.startsWith('application/json')) parsed.body = JSON.parse(text)
  else if (type.startsWith('multipart/form-data')) parsed.body = JSON.parse(req.headers['x-fields'] as string)
  // Anything else: read, and nothing left in req.body (a parser that keeps only what it knows).
}

beforeAll(async () => {
  target = await listen(
    createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          contentType: req.headers['content-type'],
          contentLength: req.headers['content-length'],
          body: Buffer.concat(chunks).toString(),
        })
        res.end('ok')
      })
    }),
  )
  const fixRequestBody = (proxyReq: OutgoingProxyRequest, req: ProxyRequest) => {
    const body = (req as { body?: unknown }).body
    if (body === undefined) return
    const data = JSON.stringify({ ...(body as object), added: true })
    proxyReq.setHeader('content-type', 'application/json')
    proxyReq.setHeader('content-length', Buffer.byteLength(data))
    proxyReq.write(data)
  }
  const routes: Routes = {
    '/fix': { target: target.url, on: { proxyReq: fixRequestBody } },
    '/wrong-length': {
      target: target.url,
      on: {
        proxyReq: (proxyReq) => {
          proxyReq.setHeader('content-length', 3)
          proxyReq.write('a longer body than declared')
        },
      },
    },
    '/to-form': {
      target: target.url,
      on: { proxyReq: (proxyReq) => proxyReq.setHeader('content-type', 'application/x-www-form-urlencoded') },
    },
    '/to-xml': {
      target: target.url,
      on: { proxyReq: (proxyReq) => proxyReq.setHeader('content-type', 'application/xml') },
    },
    '/prefix': { target: target.url, on: { proxyReq: (proxyReq) => proxyReq.write('hook:') } },
    '/written': { target: target.url, on: { proxyReq: (proxyReq) => proxyReq.end('rewritten') } },
    '/silent-hook': { target: target.url, on: { proxyReq: () => undefined } },
    '/plain': target.url,
  }
  proxy = createCorsDevProxy(routes, { logger: sink })
  front = await listen(
    createServer(async (req: IncomingMessage, res: ServerResponse) => {
      // Only requests that say so are parsed before the proxy, as a mounted parser would.
      if (req.headers['x-parse'] === '1') await parse(req)
      proxy.middleware(req, res)
    }),
  )
})

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await target?.close()
})

beforeEach(() => {
  received = []
})

const json = { 'content-type': 'application/json', 'x-parse': '1' }

describe('a body a proxyReq hook changes', () => {
  it('fixRequestBody: what the hook wrote reaches the target byte for byte', async () => {
    const res = await sendRequest(`${front.url}/fix/items`, {
      method: 'POST',
      headers: json,
      body: '{"a":1}',
    })
    expect(res.status).toBe(200)
    const [seen] = received
    expect(seen?.body).toBe('{"a":1,"added":true}')
    expect(seen?.contentLength).toBe(String(Buffer.byteLength('{"a":1,"added":true}')))
  })

  it('a declared length that does not match is corrected, and said in the log', async () => {
    await sendRequest(`${front.url}/wrong-length/x`, { method: 'POST', headers: json, body: '{}' })
    expect(received[0]?.body).toBe('a longer body than declared')
    expect(received[0]?.contentLength).toBe('27')
    expect(sink.text()).toContain('set Content-Length: 3 and wrote a body of 27 bytes')
  })

  it('a changed Content-Type re-serialises the parsed body in that type', async () => {
    await sendRequest(`${front.url}/to-form/x`, {
      method: 'POST',
      headers: json,
      body: '{"a":"1","b":["x","y"]}',
    })
    expect(received[0]).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      body: 'a=1&b=x&b=y',
      contentLength: '11',
    })
  })

  it('a type the body cannot be sent as keeps the original, and says so', async () => {
    await sendRequest(`${front.url}/to-xml/x`, { method: 'POST', headers: json, body: '{"a":1}' })
    expect(received[0]).toMatchObject({ contentType: 'application/json', body: '{"a":1}' })
    expect(sink.text()).toContain('changed Content-Type to application/xml')
  })

  it('bytes written on a body nobody read go first, then the client’s stream', async () => {
    await sendRequest(`${front.url}/prefix/x`, { method: 'POST', body: 'client body' })
    expect(received[0]).toMatchObject({ body: 'hook:client body', contentLength: '16' })
  })

  it('a body a parser read without leaving req.body is sent as the hook wrote it', async () => {
    const res = await sendRequest(`${front.url}/written/x`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'x-parse': '1' },
      body: 'a,b',
    })
    expect(res.status).toBe(200)
    expect(received[0]).toMatchObject({ body: 'rewritten', contentLength: '9' })
  })

  it('is still refused 500 when no hook wrote it again', async () => {
    const res = await sendRequest(`${front.url}/silent-hook/x`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'x-parse': '1' },
      body: 'a,b',
    })
    expect(res.status).toBe(500)
    expect(received).toEqual([])
  })
})

describe('a multipart body a parser read', () => {
  const boundary = '----cdpBoundary42'
  const multipart = (fields: Record<string, string>) => ({
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'x-parse': '1',
    'x-fields': JSON.stringify(fields),
  })

  it('is sent again with its boundary', async () => {
    const res = await sendRequest(`${front.url}/plain/upload`, {
      method: 'POST',
      headers: multipart({ title: 'two\r\nlines', n: '1' }),
      body: 'ignored: the parser leaves x-fields',
    })
    expect(res.status).toBe(200)
    expect(received[0]?.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\ntwo\r\nlines\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="n"\r\n\r\n1\r\n--${boundary}--\r\n`,
    )
  })

  it.each([
    [
      'a value holding the boundary',
      { note: `x\r\n--${boundary}\r\nContent-Disposition: form-data; name="admin"\r\n\r\ntrue` },
    ],
    ['a name with CR/LF', { 'a"\r\nX-Injected: 1': 'v' }],
  ])('with %s is refused 400, nothing reaches the target', async (_name, fields) => {
    const res = await sendRequest(`${front.url}/plain/upload`, {
      method: 'POST',
      headers: multipart(fields),
      body: 'ignored',
    })
    expect(res.status).toBe(400)
    expect(res.body.toString()).toContain('not forwarded')
    expect(received).toEqual([])
    expect(sink.text()).toContain('400 POST /plain/upload')
  })
})

describe('req.body a proxyReq hook edits after express.json(), writing nothing', () => {
  let app: StartedServer<Server>
  let jsonProxy: CorsDevProxy
  const edit = (req: ProxyRequest) => {
    const body = (req as { body?: Record<string, unknown> }).body ?? {}
    body.edited = 'yes'
    delete body.secret
  }

  beforeAll(async () => {
    jsonProxy = createCorsDevProxy(
      {
        '/edit': { target: target.url, on: { proxyReq: (_proxyReq, req) => edit(req) } },
        '/edit-form': {
          target: target.url,
          on: {
            proxyReq: (proxyReq, req) => {
              edit(req)
              proxyReq.setHeader('content-type', 'application/x-www-form-urlencoded')
            },
          },
        },
      },
      { logger: sink },
    )
    const server = express()
    server.use(express.json())
    server.use((req, res, next) => jsonProxy.middleware(req, res, next))
    app = await listen(createServer(server))
  })

  afterAll(async () => {
    await jsonProxy?.close()
    await app?.close()
  })

  it.each([
    ['with Content-Type unchanged', '/edit', 'application/json', '{"a":1,"edited":"yes"}'],
    ['with Content-Type changed', '/edit-form', 'application/x-www-form-urlencoded', 'a=1&edited=yes'],
  ])('%s: the target gets the edited body, with its length', async (_name, prefix, type, body) => {
    const res = await sendRequest(`${app.url}${prefix}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1,"secret":"s"}',
    })
    expect(res.status).toBe(200)
    expect(received).toEqual([
      { url: '/items', contentType: type, contentLength: String(Buffer.byteLength(body)), body },
    ])
  })
})
