import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { createServer as createNetServer } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { describeUpstreamError, errorBody, errorCode, targetLabel } from '../../src/forward/proxy-error.js'

// The CommonJS object of node:dns, the one node:net calls `lookup` on (an ES namespace cannot be spied on).
const dns = createRequire(import.meta.url)('node:dns') as typeof import('node:dns')

const target = new URL('http://127.0.0.1:3000')
const context = { label: 'http://127.0.0.1:3000', target, timeout: 30_000 }
const withCode = (code: string) => Object.assign(new Error(code), { code })

describe('describeUpstreamError', () => {
  const cases: Array<[code: string, status: number, cause: string, hint: string]> = [
    ['ECONNREFUSED', 502, 'connection refused', 'is the server at http://127.0.0.1:3000 running?'],
    ['ENOTFOUND', 502, 'host not found', 'check the host name "127.0.0.1"'],
    ['EAI_AGAIN', 502, 'DNS lookup failed', 'check the network'],
    ['ECONNRESET', 502, 'connection closed by the server', 'check its log'],
    ['UND_ERR_SOCKET', 502, 'connection closed by the server', 'check its log'],
    ['EHOSTUNREACH', 502, 'host unreachable', 'reachable'],
    ['UND_ERR_CONNECT_TIMEOUT', 504, 'connect timeout', 'is the host up?'],
    ['UND_ERR_HEADERS_TIMEOUT', 504, 'no response within 30000 ms', "raise the route's `timeout`"],
    [
      'HPE_INVALID_CONSTANT',
      502,
      'malformed response',
      'did not answer valid HTTP/1.1 (an HTTPS server needs https://)',
    ],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 502, 'TLS certificate not trusted', 'set `secure: false`'],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      502,
      'TLS certificate is for another host name',
      'does not name 127.0.0.1',
    ],
    ['CERT_HAS_EXPIRED', 502, 'TLS certificate not valid now', 'renew'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 502, 'TLS handshake failed', 'use http://'],
    ['EWHATEVER', 502, 'proxy error (EWHATEVER)', 'check that the server'],
  ]

  it.each(cases)('%s → %i %s', (code, status, cause, hint) => {
    const failure = describeUpstreamError(withCode(code), context)
    expect(failure.status).toBe(status)
    expect(failure.cause).toContain(cause)
    expect(failure.hint).toContain(hint)
    expect(failure.code).toBe(code)
  })

  it("calls undici's HTTPParserError without a code a malformed response", () => {
    const error = Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), {
      name: 'HTTPParserError',
    })
    expect(describeUpstreamError(error, context)).toMatchObject({ status: 502, cause: 'malformed response' })
  })

  it('finds the code in an AggregateError (happy eyeballs) and in a cause', () => {
    expect(errorCode(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(
      'ECONNREFUSED',
    )
    expect(errorCode(new Error('wrapped', { cause: withCode('ENOTFOUND') }))).toBe('ENOTFOUND')
    expect(errorCode('not an error')).toBeUndefined()
  })

  it('labels a target by its origin and base path', () => {
    expect(targetLabel(new URL('http://127.0.0.1:3000'))).toBe('http://127.0.0.1:3000')
    expect(targetLabel(new URL('http://127.0.0.1:3000/v1/'))).toBe('http://127.0.0.1:3000/v1')
  })
})

describe('errorBody', () => {
  const failure = describeUpstreamError(withCode('ECONNREFUSED'), context)

  it.each([undefined, 'text/html,*/*', '*/*'])('is one line of text for Accept %s', (accept) => {
    expect(errorBody(failure, context.label, accept)).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: 'connection refused: is the server at http://127.0.0.1:3000 running?\n',
    })
  })

  it('is JSON when Accept asks for application/json', () => {
    const { contentType, body } = errorBody(failure, context.label, 'application/json, text/plain')
    expect(contentType).toBe('application/json; charset=utf-8')
    expect(JSON.parse(body)).toEqual({
      error: 'Bad Gateway',
      target: 'http://127.0.0.1:3000',
      cause: 'connection refused',
      hint: 'is the server at http://127.0.0.1:3000 running?',
    })
  })
})

describe('upstream failures over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  it('answers a refused connection 502 with the cause, as text or JSON, and keeps serving', async () => {
    const dead = await refusedUrl()
    const alive = await listen(createServer((_req, res) => res.end('alive')))
    cleanup.push(alive.close)
    const proxy = await serveProxy({ '/dead': dead, '/alive': alive.url }, { log: 'silent' })
    cleanup.push(proxy.close)

    const text = await sendRequest(`${proxy.url}/dead/x`)
    expect(text.status).toBe(502)
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(text.body.toString()).toBe(`connection refused: is the server at ${dead} running?\n`)

    const json = await sendRequest(`${proxy.url}/dead/x`, { headers: { accept: 'application/json' } })
    expect(json.status).toBe(502)
    expect(JSON.parse(json.body.toString())).toEqual({
      error: 'Bad Gateway',
      target: dead,
      cause: 'connection refused',
      hint: `is the server at ${dead} running?`,
    })

    expect((await sendRequest(`${proxy.url}/alive/x`)).body.toString()).toBe('alive')
  })

  it('answers 504 when the target sends no headers within the route timeout', async () => {
    const silent = await listen(createServer(() => undefined))
    cleanup.push(silent.close)
    const proxy = await serveProxy({ '/api': { target: silent.url, timeout: 200 } }, { log: 'silent' })
    cleanup.push(proxy.close)
    const res = await sendRequest(`${proxy.url}/api/slow`)
    expect(res.status).toBe(504)
    expect(res.body.toString()).toBe(
      `no response within 200 ms: the server at ${silent.url} is slow or stuck: raise the route's \`timeout\` if it needs longer\n`,
    )
    const json = await sendRequest(`${proxy.url}/api/slow`, { headers: { accept: 'application/json' } })
    expect(json.status).toBe(504)
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(json.body.toString())).toMatchObject({
      error: 'Gateway Timeout',
      target: silent.url,
      cause: 'no response within 200 ms',
    })
  })

  it('answers 502 naming the host when the target host name does not resolve', async () => {
    // The target's name lookup is answered here, so that no query leaves the machine.
    const realLookup = dns.lookup
    const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((
      hostname: string,
      options: unknown,
      callback?: (error: NodeJS.ErrnoException) => void,
    ) => {
      if (hostname !== 'api.does-not-exist.invalid') {
        return (realLookup as (...args: unknown[]) => void)(hostname, options, callback)
      }
      const done = typeof options === 'function' ? (options as typeof callback) : callback
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
        hostname,
      })
      process.nextTick(() => done?.(error))
    }) as unknown as typeof dns.lookup)
    cleanup.push(async () => lookup.mockRestore())
    const proxy = await serveProxy({ '/api': 'http://api.does-not-exist.invalid:3000' }, { log: 'silent' })
    cleanup.push(proxy.close)
    const res = await sendRequest(`${proxy.url}/api/x`)
    expect(res.status).toBe(502)
    expect(res.body.toString()).toBe(
      `host not found: check the host name "api.does-not-exist.invalid" in the route's target\n`,
    )
    expect(lookup.mock.calls.map(([hostname]) => hostname as string)).toContain('api.does-not-exist.invalid')
  })

  it('answers 502 when the target answers something that is not HTTP', async () => {
    const garbage = await listen(
      createNetServer((socket) => {
        socket.on('error', () => undefined)
        socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'))
      }),
    )
    cleanup.push(garbage.close)
    const proxy = await serveProxy({ '/api': garbage.url }, { log: 'silent' })
    cleanup.push(proxy.close)
    const res = await sendRequest(`${proxy.url}/api/x`)
    expect(res.status).toBe(502)
    expect(res.body.toString()).toMatch(/^malformed response: /)
  })

  it('logs the first failure at once and the rest as a summary, for 20 requests to a dead target', async () => {
    const dead = await refusedUrl()
    const sink = captureLogSink()
    const proxy = await serveProxy({ '/api': dead }, { logger: sink })
    cleanup.push(proxy.close)
    for (let i = 0; i < 20; i++) expect((await sendRequest(`${proxy.url}/api/${i}`)).status).toBe(502)
    const refused = sink.lines.filter((line) => line.message.includes('connection refused'))
    expect(refused).toHaveLength(1)
    expect(refused[0]?.level).toBe('error')
    expect(refused[0]?.message).toContain(`502 GET /api/0 → ${dead}: connection refused`)
    await proxy.close()
    const lines = sink.lines.filter((line) => line.message.includes('connection refused'))
    expect(lines).toHaveLength(2)
    expect(lines[1]?.message).toMatch(
      new RegExp(
        `${dead.replaceAll('.', '\\.')} still failing: 19 more requests in \\d+ s \\(connection refused; /api/1, /api/2, /api/3, /api/4, /api/5\\)`,
      ),
    )
  })
})
