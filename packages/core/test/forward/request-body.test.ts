import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink, collectBody, listen, sendRequest } from '../../../../test/support/servers.js'
import { createCorsDevProxy } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers with the body it received and the framing headers it came with. */
async function startTarget() {
  const target = await listen(
    createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const body = (await collectBody(req)).toString()
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          body,
          length: req.headers['content-length'],
          chunked: req.headers['transfer-encoding'],
          type: req.headers['content-type'],
        }),
      )
    }),
  )
  cleanup.push(target.close)
  return target
}

/** An Express app with `parser` mounted before the proxy: the set-up that used to send empty bodies. */
async function startApp(parser: express.RequestHandler) {
  const target = await startTarget()
  const sink = captureLogSink()
  const proxy = createCorsDevProxy({ '/api': target.url }, { logger: sink })
  const app = express()
  app.use(parser)
  app.use((req, res, next) => proxy.middleware(req, res, next))
  const server = await listen(createServer(app))
  cleanup.push(async () => {
    await proxy.close()
    await server.close()
  })
  return { url: server.url, sink }
}

describe('a body a parser read before the proxy', () => {
  it.each<[title: string, parser: express.RequestHandler, type: string, sent: string, received: string]>([
    [
      'express.json()',
      express.json(),
      'application/json',
      '{"name":"Ada","tags":["a","b"]}',
      '{"name":"Ada","tags":["a","b"]}',
    ],
    [
      'express.json() on a +json type',
      express.json({ type: '*/*' }),
      'application/merge-patch+json',
      '{"a":1}',
      '{"a":1}',
    ],
    [
      'express.urlencoded()',
      express.urlencoded({ extended: false }),
      'application/x-www-form-urlencoded',
      'a=1&b=x+y&b=z',
      'a=1&b=x+y&b=z',
    ],
    [
      'express.urlencoded({ extended: true })',
      express.urlencoded({ extended: true }),
      'application/x-www-form-urlencoded',
      'user%5Bname%5D=Ada&n=1',
      'user%5Bname%5D=Ada&n=1',
    ],
    ['express.text()', express.text(), 'text/plain', 'plain words', 'plain words'],
    [
      'express.raw()',
      express.raw({ type: 'application/octet-stream' }),
      'application/octet-stream',
      'raw\u00ffbytes',
      'raw\u00ffbytes',
    ],
  ])(
    '%s: the target gets the same body, with a correct Content-Length',
    async (_title, parser, type, sent, received) => {
      const { url } = await startApp(parser)
      const res = await sendRequest(`${url}/api/items`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: sent,
      })
      expect(res.status).toBe(200)
      const seen = JSON.parse(res.body.toString()) as {
        body: string
        length: string
        chunked?: string
        type: string
      }
      expect(seen.body).toBe(received)
      expect(Number(seen.length)).toBe(Buffer.byteLength(received))
      expect(seen.chunked).toBeUndefined()
      expect(seen.type).toBe(type)
    },
  )

  it('re-serialises a chunked upload too', async () => {
    const { url } = await startApp(express.json())
    const res = await sendRequest(`${url}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: '{"a":[1,2]}',
    })
    expect(JSON.parse(res.body.toString())).toMatchObject({ body: '{"a":[1,2]}', length: '11' })
  })

  it('answers 500 naming the cause and the fix when the stream was read and nothing was left, never forwarding it empty', async () => {
    const drain: express.RequestHandler = (req, _res, next) => {
      req.resume()
      req.on('end', () => next())
    }
    const { url, sink } = await startApp(drain)
    for (let i = 0; i < 2; i++) {
      const res = await sendRequest(`${url}/api/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
      expect(res.status).toBe(500)
      expect(res.body.toString()).toContain('read before the proxy')
      expect(res.body.toString()).toContain('Mount cors-dev-proxy before the body parser')
    }
    const lines = sink.lines.filter((line) => line.message.includes('read before the proxy'))
    expect(lines).toHaveLength(1)
    expect(lines[0]?.level).toBe('error')
  })

  it('streams the body untouched when no parser read it, and sends no body for a GET', async () => {
    const { url } = await startApp((_req, _res, next) => next())
    const posted = await sendRequest(`${url}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'streamed',
    })
    expect(JSON.parse(posted.body.toString())).toMatchObject({ body: 'streamed', length: '8' })
    const got = await sendRequest(`${url}/api/items`)
    expect(JSON.parse(got.body.toString())).toMatchObject({ body: '' })
  })
})
