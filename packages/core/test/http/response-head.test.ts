import { createServer, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server, type Http2ServerResponse } from 'node:http2'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { type HookableResponse, onResponseHead, takeOverBody } from '../../src/http/response-head.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

type Handler = (res: HookableResponse) => void

async function serve(handler: Handler) {
  const server = await listen(
    createServer((_req, res: ServerResponse) => handler(res as unknown as HookableResponse)),
  )
  cleanup.push(server.close)
  return server.url
}

describe('onResponseHead', () => {
  it('sees the headers set before and given to writeHead as one set, and may change status and headers', async () => {
    const seen: string[][] = []
    const url = await serve((res) => {
      onResponseHead(res, (head) => {
        seen.push(head.getHeaderNames().sort())
        head.statusCode = 203
        head.removeHeader('x-drop')
        head.setHeader('x-added', 'yes')
      })
      res.setHeader('x-before', '1')
      res.writeHead(200, 'OK', { 'X-Given': '2', 'x-drop': 'gone' })
      res.end('body')
    })
    const answer = await sendRequest(url)
    expect(answer.status).toBe(203)
    expect(answer.headers).toMatchObject({ 'x-before': '1', 'x-given': '2', 'x-added': 'yes' })
    expect(answer.headers['x-drop']).toBeUndefined()
    expect(answer.body.toString()).toBe('body')
    expect(seen).toEqual([['x-before', 'x-drop', 'x-given']])
  })

  it('reads a flat header list, repeated names (several Set-Cookie) kept as separate lines', async () => {
    let cookies: unknown
    const url = await serve((res) => {
      onResponseHead(res, (head) => {
        cookies = head.getHeader('set-cookie')
      })
      res.writeHead(200, ['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Content-Type', 'text/plain'])
      res.end()
    })
    const answer = await sendRequest(url)
    expect(cookies).toEqual(['a=1', 'b=2'])
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect(answer.headers['content-type']).toBe('text/plain')
  })

  it('runs the hooks in the order they registered, once, also for an implicit head, and survives a throwing hook', async () => {
    const order: string[] = []
    const url = await serve((res) => {
      onResponseHead(res, () => {
        order.push('first')
        throw new Error('a broken hook')
      })
      onResponseHead(res, (head) => {
        order.push('second')
        head.setHeader('x-second', 'ran')
      })
      res.write('a')
      res.end('b')
    })
    const answer = await sendRequest(url)
    expect(order).toEqual(['first', 'second'])
    expect(answer.headers['x-second']).toBe('ran')
    expect(answer.body.toString()).toBe('ab')
  })

  it('works on the http2 compatibility API', async () => {
    const server = await listen(
      createHttp2Server((_req, res: Http2ServerResponse) => {
        onResponseHead(res as unknown as HookableResponse, (head) =>
          head.setHeader('x-h2', String(head.statusCode)),
        )
        res.statusCode = 201
        res.end('h2')
      }),
    )
    cleanup.push(server.close)
    const answer = await sendHttp2Request(`${server.url}/`)
    expect(answer.status).toBe(201)
    expect(answer.headers['x-h2']).toBe('201')
  })
})

describe('takeOverBody', () => {
  it('replaces the body the handler wrote, and changes the head before the hooks see it', async () => {
    let hookSaw: unknown
    const url = await serve((res) => {
      onResponseHead(res, (head) => {
        hookSaw = head.getHeader('content-type')
      })
      takeOverBody(res, 1024, (body, head) => {
        head.setHeader('content-type', 'text/upper')
        head.setHeader('content-length', '8')
        return String(body).toUpperCase()
      })
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('hel')
      res.end('lo ok')
    })
    const answer = await sendRequest(url)
    expect(answer.body.toString()).toBe('HELLO OK')
    expect(answer.headers['content-type']).toBe('text/upper')
    expect(hookSaw).toBe('text/upper')
  })

  it('hands over undefined past the limit, so the taker can refuse instead of holding without bound', async () => {
    const url = await serve((res) => {
      takeOverBody(res, 4, (body, head) => {
        head.statusCode = 502
        return body === undefined ? 'too large' : 'fits'
      })
      res.end('more than four bytes')
    })
    const answer = await sendRequest(url)
    expect(answer.status).toBe(502)
    expect(answer.body.toString()).toBe('too large')
  })

  it('answers the moment the body passes the limit, and makes later writes pause a pipe instead of failing', async () => {
    const results: unknown[] = []
    let errors = 0
    const url = await serve((res) => {
      ;(res as unknown as ServerResponse).on('error', () => errors++)
      takeOverBody(res, 4, (body, head) => {
        head.statusCode = 502
        return body === undefined ? 'too large' : 'fits'
      })
      res.writeHead(200, { 'content-type': 'text/plain' })
      results.push(res.write('abc'))
      results.push(res.write('defgh'))
      // Past the limit the answer is out: what follows is dropped, the writer told to stop.
      results.push(res.headersSent)
      results.push(res.write('more', () => results.push('callback')))
      res.end('end')
    })
    const answer = await sendRequest(url)
    expect(answer.status).toBe(502)
    expect(answer.body.toString()).toBe('too large')
    expect(results).toEqual([true, false, true, 'callback', false])
    expect(errors).toBe(0)
  })

  it('leaves a response alone whose head is already out', async () => {
    const url = await serve((res) => {
      res.writeHead(200)
      res.write('sent ')
      takeOverBody(res, 1024, () => 'never')
      res.end('as written')
    })
    expect((await sendRequest(url)).body.toString()).toBe('sent as written')
  })
})
