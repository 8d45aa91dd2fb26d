import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runInNewContext } from 'node:vm'
import express from 'express'
import { Agent, request } from 'undici'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  type RunningServer,
  serveMiddleware,
  type TestMiddleware,
} from '../../../../test/support/connect-server.js'
import { createJsonpMiddleware } from '../../src/jsonp/jsonp-middleware.js'
import { jsonpCallbackOf } from '../../src/jsonp/jsonp-request.js'

const agent = new Agent()
const closers: Array<() => Promise<void>> = []

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})
afterAll(() => agent.close())

/** Serves an Express app on 127.0.0.1, port 0, closed after the test. */
async function listen(app: express.Express): Promise<string> {
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function send(url: string, method = 'GET') {
  const res = await request(url, { method, dispatcher: agent })
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() }
}

function run(script: string, callback: string): unknown[] {
  const calls: unknown[] = []
  runInNewContext(script, { [callback]: (value: unknown) => calls.push(value) })
  return calls
}

describe('createJsonpMiddleware with Express 5', () => {
  async function expressApp(param?: string) {
    const app = express()
    app.use(createJsonpMiddleware(param === undefined ? {} : { param }))
    app.get('/users', (_req, res) => {
      res.set('etag', '"json-etag"')
      res.json([{ id: 1, note: 'line\u2028sep' }])
    })
    app.get('/page', (_req, res) => {
      res.type('html').send('<p>not json</p>')
    })
    app.post('/users', (_req, res) => {
      res.status(201).json({ created: true })
    })
    app.get('/written', (_req, res) => {
      res.writeHead(202, { 'content-type': 'application/problem+json' })
      res.write('{"a":')
      res.end('[1,2]}')
    })
    return listen(app)
  }

  it('wraps a JSON answer as JSONP', async () => {
    const url = await expressApp()
    const res = await send(`${url}/users?callback=handle`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers.etag).toBeUndefined()
    expect(res.body).toBe(`/**/ typeof handle === 'function' && handle([{"id":1,"note":"line\\u2028sep"}]);`)
    expect(run(res.body, 'handle')).toEqual([[{ id: 1, note: 'line\u2028sep' }]])
  })

  it('wraps answers written with writeHead/write/end, keeping the status', async () => {
    const url = await expressApp()
    const res = await send(`${url}/written?callback=cb`)
    expect(res.status).toBe(202)
    expect(run(res.body, 'cb')).toEqual([{ a: [1, 2] }])
  })

  it('leaves requests without the parameter alone', async () => {
    const url = await expressApp()
    const res = await send(`${url}/users?cb=handle`)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(res.body)).toEqual([{ id: 1, note: 'line\u2028sep' }])
  })

  it('uses the configured parameter', async () => {
    const url = await expressApp('cb')
    expect(run((await send(`${url}/users?cb=h`)).body, 'h')).toHaveLength(1)
    expect((await send(`${url}/users?callback=h`)).headers['content-type']).toMatch(/json/)
  })

  it('passes a non-JSON answer through unchanged', async () => {
    const url = await expressApp()
    const res = await send(`${url}/page?callback=cb`)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toBe('<p>not json</p>')
  })

  it('answers 400 for an invalid name without reaching the handler or reflecting it', async () => {
    const url = await expressApp()
    const res = await send(`${url}/users?callback=${encodeURIComponent('alert(1)//')}`)
    expect(res.status).toBe(400)
    expect(res.body).not.toContain('alert')
    expect(JSON.parse(res.body).param).toBe('callback')
  })

  it('answers 405 with Allow: GET for another method', async () => {
    const url = await expressApp()
    const res = await send(`${url}/users?callback=cb`, 'POST')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET')
    // Without the parameter the POST is an ordinary request.
    expect((await send(`${url}/users`, 'POST')).status).toBe(201)
  })
})

describe('createJsonpMiddleware with a plain handler', () => {
  it('wraps a JSON answer set with setHeader and end', async () => {
    const server = await serveMiddleware(createJsonpMiddleware() as TestMiddleware, (_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(Buffer.from('{"ok":true}'))
    })
    closers.push(() => server.close())
    const res = await send(`${server.url}/x?callback=a.b`)
    const calls: unknown[] = []
    runInNewContext(res.body, { a: { b: (v: unknown) => calls.push(v) } })
    expect(calls).toEqual([{ ok: true }])
  })

  it('passes invalid JSON through rather than putting it in a script', async () => {
    const server: RunningServer = await serveMiddleware(
      createJsonpMiddleware() as TestMiddleware,
      (_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.end('alert(1)')
      },
    )
    closers.push(() => server.close())
    const res = await send(`${server.url}/x?callback=cb`)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.body).toBe('alert(1)')
  })

  it('refuses an invalid parameter name at construction', () => {
    expect(() => createJsonpMiddleware({ param: 'a b' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    )
  })
})

describe('jsonpCallbackOf', () => {
  it.each([
    ['/x?callback=cb', 'cb'],
    ['/x?a=1&callback=cb&b=2', 'cb'],
    ['/x?callback=', ''],
    ['/x?callback=a%2Eb', 'a.b'],
    ['/x', undefined],
    ['/x?other=1', undefined],
    ['/x?a=1#callback=cb', undefined],
  ])('%s → %j', (target, expected) => {
    expect(jsonpCallbackOf(target, 'callback')).toBe(expected)
  })
})
