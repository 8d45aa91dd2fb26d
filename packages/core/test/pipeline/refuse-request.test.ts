import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { collectBody, listen } from '../../../../test/support/servers.js'
import type { ProxyRequest, ProxyResponse } from '../../src/index.js'
import { refuseConnect, refuseConnectOn, refuseRequest } from '../../src/pipeline/refuse-request.js'

const REFUSAL = 'cors-dev-proxy forwards paths only: absolute URLs and CONNECT are refused\n'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** Writes raw bytes to a server and reads everything until it closes the connection. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let received = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(received))
  })
}

/** A target that records every request, and a proxy in front of it whose `/api` route points there. */
async function setup() {
  const seen: string[] = []
  const target = await listen(
    createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      res.end('target')
    }),
  )
  cleanup.push(target.close)
  const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
  cleanup.push(proxy.close)
  proxy.server.on('connect', refuseConnect)
  // undici announces every request it creates: none may be created for a refused target.
  const created: unknown[] = []
  const onCreate = (message: unknown) => {
    created.push(message)
  }
  subscribe('undici:request:create', onCreate)
  cleanup.push(async () => {
    unsubscribe('undici:request:create', onCreate)
  })
  return { target, proxy, seen, created }
}

describe('refused request targets over a raw socket', () => {
  it.each([
    ['absolute-form to another host', 'GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n'],
    [
      'absolute-form to the configured target',
      'GET http://127.0.0.1:TARGET/api/x HTTP/1.1\r\nHost: 127.0.0.1\r\n',
    ],
    [
      'absolute-form with a route prefix as path',
      'POST http://evil.example/api/x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n',
    ],
    ['asterisk-form', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n'],
  ])('answers %s with 400 and forwards nothing', async (_name, head) => {
    const { target, proxy, seen, created } = await setup()
    const response = await rawExchange(
      proxy.port,
      `${head.replace('TARGET', String(target.port))}Connection: close\r\n\r\n`,
    )
    expect(response).toMatch(/^HTTP\/1\.1 400 /)
    expect(response.endsWith(REFUSAL)).toBe(true)
    expect(seen).toEqual([])
    expect(created).toEqual([])
  })

  it('answers CONNECT with 400 when refuseConnect listens, and forwards nothing', async () => {
    const { target, proxy, seen, created } = await setup()
    const response = await rawExchange(
      proxy.port,
      `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n\r\n`,
    )
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(response.endsWith(REFUSAL)).toBe(true)
    expect(seen).toEqual([])
    expect(created).toEqual([])
  })

  it('still forwards an origin-form request on the same server', async () => {
    const { proxy, seen } = await setup()
    const response = await rawExchange(
      proxy.port,
      'GET /api/x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    )
    expect(response).toMatch(/^HTTP\/1\.1 200 /)
    expect(seen).toEqual(['GET /x'])
  })
})

describe('refused request targets from a real node:http2 client', () => {
  // Node's HTTP/2 server answers CONNECT 405 itself when nobody listens to 'connect' (the
  // middleware never sees it); an asterisk-form OPTIONS reaches the middleware, which answers 400.
  it.each([
    ['CONNECT to the target', 405, { ':method': 'CONNECT', ':authority': 'TARGET' }, ''],
    ['asterisk-form', 400, { ':method': 'OPTIONS', ':path': '*' }, REFUSAL],
  ])('answers %s with %i and forwards nothing', async (_name, status, request, body) => {
    const { target, seen, created } = await setup()
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' }, 'h2c')
    cleanup.push(proxy.close)
    const session = connectHttp2(proxy.url)
    cleanup.push(async () => {
      session.destroy()
    })
    const headers = Object.fromEntries(
      Object.entries(request).map(([name, value]) => [
        name,
        value.replace('TARGET', `127.0.0.1:${target.port}`),
      ]),
    )
    const stream = session.request(headers)
    stream.on('error', () => undefined)
    stream.end()
    const [response] = await once(stream, 'response')
    expect(response[':status']).toBe(status)
    expect((await collectBody(stream)).toString()).toBe(body)
    expect(seen).toEqual([])
    expect(created).toEqual([])
  })
})

describe('refuseRequest', () => {
  function fakeResponse() {
    const answer = { status: 0, headers: {} as Record<string, unknown>, body: '' }
    const res = {
      set statusCode(value: number) {
        answer.status = value
      },
      setHeader: (name: string, value: unknown) => {
        answer.headers[name] = value
      },
      end: (body: string) => {
        answer.body = body
      },
    }
    return { res: res as unknown as ProxyResponse, answer }
  }

  it.each([
    ['GET', '/api/x', false],
    ['GET', '/', false],
    ['GET', 'http://evil.example/', true],
    ['GET', 'evil.example:443', true],
    ['OPTIONS', '*', true],
    ['CONNECT', 'evil.example:443', true],
    ['CONNECT', undefined, true],
  ])('%s %s → refused: %s', (method, url, refused) => {
    const { res, answer } = fakeResponse()
    const req = { method, url, httpVersionMajor: 1, headers: {} } as unknown as ProxyRequest
    expect(refuseRequest(req, res)).toBe(refused)
    expect(answer.status).toBe(refused ? 400 : 0)
    expect(answer.headers.connection).toBe(method === 'CONNECT' ? 'close' : undefined)
  })
})

describe('refuseRequest: HTTP/0.9 and two Host lines', () => {
  it('refuses what Node parsed as HTTP/0.9 (a bare LF inside the request line)', async () => {
    const { proxy, seen, created } = await setup()
    const response = await rawExchange(proxy.port, 'GET /api/x\nInjected: yes HTTP/1.1\r\nHost: a\r\n\r\n')
    expect(response).toMatch(/^HTTP\/1\.1 400 /)
    expect(response.endsWith('cors-dev-proxy refuses HTTP/0.9 requests\n')).toBe(true)
    expect(seen).toEqual([])
    expect(created).toEqual([])
  })

  it.each([
    [['Host', 'a', 'host', 'b'], true],
    [['HOST', 'a', 'X-Host', 'b', 'host', 'a'], true],
    [['Host', 'a', 'X-Forwarded-Host', 'b'], false],
    [[], false],
  ])('%j → refused: %s', (rawHeaders, refused) => {
    const answer = { status: 0, body: '', headers: {} as Record<string, unknown> }
    const res = {
      headersSent: false,
      writableEnded: false,
      set statusCode(status: number) {
        answer.status = status
      },
      setHeader: (name: string, value: unknown) => {
        answer.headers[name] = value
      },
      end: (body?: string) => {
        answer.body = body ?? ''
      },
    } as unknown as ProxyResponse
    const req = {
      method: 'GET',
      url: '/api',
      httpVersionMajor: 1,
      headers: {},
      rawHeaders,
    } as unknown as ProxyRequest
    expect(refuseRequest(req, res)).toBe(refused)
    expect(answer.status).toBe(refused ? 400 : 0)
    if (refused) expect(answer.body).toBe('cors-dev-proxy refuses a request with more than one Host header\n')
  })
})

describe('refuseConnectOn', () => {
  it('registers the 400 answer on an HTTP/1.1 server that has no CONNECT listener', () => {
    const server = createServer()
    expect(refuseConnectOn(server)).toBe(true)
    expect(server.listeners('connect')).toEqual([refuseConnect])
  })

  it('leaves a server alone that already handles CONNECT', () => {
    const server = createServer()
    const own = () => {}
    server.on('connect', own)
    expect(refuseConnectOn(server)).toBe(false)
    expect(server.listeners('connect')).toEqual([own])
  })

  it('leaves HTTP/2 servers alone, whose connect event has another signature', () => {
    const server = createHttp2Server()
    expect(refuseConnectOn(server)).toBe(false)
    expect(server.listenerCount('connect')).toBe(0)
  })
})
