import { createServer } from 'node:http'
import { type RunningMockBackend, startMockBackend } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import type { CheckReport } from '../../src/check/run-check.js'
import { runCli, runCliHere } from '../support/cli-process.js'

/**
 * `cors-dev-proxy check` against real servers on 127.0.0.1, run by the CLI's `runCli` in this
 * process (the first case runs the built binary in a child process, as a user does): the report, its
 * exit codes (0 readable, 1 blocked, 2 unreachable or bad arguments), `--json`, the negotiated
 * protocol and `Alt-Svc`. That its verdicts equal Chromium's is test/browser/check-agrees-with-chromium.test.ts.
 */

const ORIGIN = 'http://localhost:5173'
let mock: RunningMockBackend
let h2Mock: RunningMockBackend
let altSvc: StartedServer<ReturnType<typeof createServer>>
let down: string

beforeAll(async () => {
  const { cert, key } = await localhostCertificate()
  mock = await startMockBackend()
  h2Mock = await startMockBackend({ https: { cert, key }, http2: true, cors: 'reflect' })
  altSvc = await listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'access-control-allow-origin': '*', 'alt-svc': 'h3=":443"; ma=86400' })
      res.end('{}')
    }),
  )
  down = await refusedUrl()
})

afterAll(async () => {
  await Promise.all([mock?.close(), h2Mock?.close(), altSvc?.close()])
})

async function checkJson(args: string[]): Promise<{ code: number | null; report: CheckReport }> {
  const result = await runCliHere(['check', ...args, '--json'])
  return { code: result.code, report: JSON.parse(result.stdout) as CheckReport }
}

describe('check: exit codes and the report', () => {
  it('exit 0 for a readable simple request, with its class, the exchange and the verdict', async () => {
    // The binary itself, in a child process: its exit code and stdout are what a script sees.
    const result = await runCli(['check', `${mock.origin}/users?cors=reflect`, '--origin', ORIGIN])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`check GET ${mock.origin}/users?cors=reflect`)
    expect(result.stdout).toContain('Request class: simple (no preflight)')
    expect(result.stdout).toMatch(/1\. Request +GET /)
    expect(result.stdout).toContain(`   > origin: ${ORIGIN}`)
    expect(result.stdout).toContain(`   < access-control-allow-origin: ${ORIGIN}`)
    expect(result.stdout).toContain('Protocol: HTTP/1.1: browsers speak HTTP/2 only over TLS (https:)')
    expect(result.stdout).toContain('Verdict: readable')
    expect(result.stdout).toContain('  and these response headers: content-length, content-type')
  })

  it('--json lists the response headers the script can read', async () => {
    const { code, report } = await checkJson([
      `${mock.origin}/users?cors=reflect&expose=x-id&header=X-Id:7&header=X-Other:1`,
      '--origin',
      ORIGIN,
    ])
    expect(code).toBe(0)
    expect(report.verdict).toEqual({
      outcome: 'readable',
      readableHeaders: ['content-length', 'content-type', 'x-id'],
    })
  })

  it("exit 1 for a blocked preflighted request: why it is preflighted, the preflight, Chromium's words, the fix", async () => {
    const url = `${mock.origin}/items/1?cors=reflect&allowHeaders=content-type`
    const result = await runCliHere([
      'check',
      url,
      '--origin',
      ORIGIN,
      '--method',
      'PUT',
      '--header',
      'Content-Type: application/json',
      '--header',
      'X-Foo: bar',
    ])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Request class: preflighted')
    expect(result.stdout).toContain('  - the method PUT is not GET, HEAD or POST')
    expect(result.stdout).toContain('  - the header x-foo is not CORS-safelisted')
    expect(result.stdout).toContain('   > access-control-request-headers: content-type,x-foo')
    expect(result.stdout).toContain('   < access-control-allow-headers: content-type')
    expect(result.stdout).toContain('Request   not sent: the browser stops after a failed preflight')
    expect(result.stdout).toContain(
      `  Access to fetch at '${url}' from origin '${ORIGIN}' has been blocked by CORS policy: Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.`,
    )
    expect(result.stdout).toContain('Fix: add `x-foo` to `cors.allowedHeaders`')
    // The PUT itself was never sent: nothing to warn about.
    expect(result.stdout).not.toContain('note: check sent a real')
  })

  it('sends the DELETE the user asked for, and says it may have changed data; a GET gets no such note', async () => {
    const received: string[] = []
    const server = await listen(
      createServer((req, res) => {
        received.push(`${req.method} ${req.url}`)
        res.writeHead(req.method === 'OPTIONS' ? 204 : 200, {
          'access-control-allow-origin': ORIGIN,
          'access-control-allow-methods': 'DELETE',
        })
        res.end()
      }),
    )
    try {
      const url = `${server.url}/items/1`
      const result = await runCliHere(['check', url, '--origin', ORIGIN, '--method', 'DELETE'])
      expect(result.code).toBe(0)
      expect(result.stdout).toContain(
        `note: check sent a real DELETE to ${url}; it may have changed data on the server`,
      )
      expect(received).toEqual(['OPTIONS /items/1', 'DELETE /items/1'])
      const { report } = await checkJson([url, '--origin', ORIGIN, '--method', 'DELETE'])
      expect(report.sideEffectNote).toBe(
        `note: check sent a real DELETE to ${url}; it may have changed data on the server`,
      )
      const get = await runCliHere(['check', url, '--origin', ORIGIN])
      expect(get.stdout).not.toContain('note: check sent a real')
    } finally {
      await server.close()
    }
  })

  it('exit 0 for a same-origin call: no CORS, no preflight', async () => {
    const { code, report } = await checkJson([
      `${mock.origin}/items?cors=off`,
      '--origin',
      mock.origin,
      '--method',
      'DELETE',
    ])
    expect(code).toBe(0)
    expect(report).toMatchObject({ sameOrigin: true, verdict: { outcome: 'readable' } })
    expect(report.exchanges.map((exchange) => exchange.kind)).toEqual(['request'])
    const text = await runCliHere(['check', `${mock.origin}/items?cors=off`, '--origin', mock.origin])
    expect(text.stdout).toContain('Request class: same-origin: CORS does not apply')
  })

  it('exit 2 when the server cannot be reached', async () => {
    const result = await runCliHere(['check', `${down}/x`, '--origin', ORIGIN])
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('Verdict: unreachable')
    expect(result.stdout).toContain('ECONNREFUSED')
  })

  it.concurrent.each([
    [[], 'check needs the URL the page calls'],
    [['http://127.0.0.1:1/x'], '--origin is required'],
    [['ftp://127.0.0.1/x', '--origin', ORIGIN], 'the URL must be an http: or https: URL'],
    [['http://127.0.0.1:1/x', '--origin', 'localhost:5173'], '--origin must be an origin'],
    [
      ['http://127.0.0.1:1/x', '--origin', ORIGIN, '--method', 'CONNECT'],
      'fetch refuses CONNECT before sending anything',
    ],
    [['http://127.0.0.1:1/x', '--origin', ORIGIN, '--method', 'GE T'], '--method must be a method name'],
    [['http://127.0.0.1:1/x', '--origin', ORIGIN, '--header', 'X-Foo'], "--header must be 'Name: value'"],
    [['http://127.0.0.1:1/x', '--origin', ORIGIN, '--body-type', 'json'], 'fetch refuses a body on GET'],
    [
      ['http://127.0.0.1:1/x', '--origin', ORIGIN, '--body-type', 'yaml', '--method', 'POST'],
      '--body-type must be',
    ],
    [
      ['http://127.0.0.1:1/x', '--origin', ORIGIN, '--timeout', '0'],
      '--timeout must be a whole number of milliseconds',
    ],
    [
      ['http://127.0.0.1:1/x', '--origin', ORIGIN, '--page-address-space', 'private'],
      '--page-address-space must be loopback, local or public',
    ],
    [['http://127.0.0.1:1/x', '--orign', ORIGIN], 'unknown flag --orign for `check`: did you mean --origin?'],
  ])('exit 2 for bad arguments %j', async (args, message) => {
    const result = await runCliHere(['check', ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).toContain('example: cors-dev-proxy check ')
  })
})

describe('check --json', () => {
  it('prints one object with the same facts, and the same exit code', async () => {
    const url = `${mock.origin}/items/1?cors=reflect&allowMethods=GET,POST`
    const { code, report } = await checkJson([url, '--origin', ORIGIN, '--method', 'PUT'])
    expect(code).toBe(1)
    expect(report).toMatchObject({
      url,
      origin: ORIGIN,
      method: 'PUT',
      credentials: 'same-origin',
      initiator: 'fetch',
      classification: { kind: 'preflight', reasons: [{ code: 'method' }], unsafeHeaderNames: [] },
      exchanges: [
        {
          kind: 'preflight',
          method: 'OPTIONS',
          requestHeaders: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
          status: 204,
          responseHeaders: { 'access-control-allow-methods': 'GET, POST' },
        },
      ],
      protocol: { alpn: 'http/1.1' },
      altSvc: null,
      verdict: {
        outcome: 'blocked',
        stage: 'preflight',
        message: `Access to fetch at '${url}' from origin '${ORIGIN}' has been blocked by CORS policy: Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.`,
        error: { kind: 'method-not-allowed', preflight: true, hint: 'PUT' },
      },
      exitCode: 1,
    })
    expect(report.exchanges).toHaveLength(1)
  })

  it('sends the body type the browser would: a JSON body is preflighted, a form body is not', async () => {
    const json = await checkJson([
      `${mock.origin}/x?cors=reflect`,
      '--origin',
      ORIGIN,
      '--method',
      'POST',
      '--body-type',
      'json',
    ])
    expect(json.code).toBe(0)
    expect(json.report.classification).toMatchObject({
      kind: 'preflight',
      reasons: [{ code: 'content-type' }],
    })
    expect(json.report.exchanges.map((exchange) => exchange.kind)).toEqual(['preflight', 'request'])
    expect(json.report.exchanges[1]?.requestHeaders['content-type']).toBe('application/json')
    const form = await checkJson([
      `${mock.origin}/x?cors=reflect`,
      '--origin',
      ORIGIN,
      '--method',
      'post',
      '--body-type',
      'form',
    ])
    expect(form.report.classification.kind).toBe('simple')
    expect(form.report.method).toBe('POST')
  })

  it('words the verdict for XMLHttpRequest with --xhr, and checks credentials with --credentials', async () => {
    const url = `${mock.origin}/me?cors=wildcard`
    const { code, report } = await checkJson([url, '--origin', ORIGIN, '--credentials', '--xhr'])
    expect(code).toBe(1)
    expect(report.credentials).toBe('include')
    expect(report.verdict.message).toBe(
      `Access to XMLHttpRequest at '${url}' from origin '${ORIGIN}' has been blocked by CORS policy: The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'. The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.`,
    )
  })
})

describe('check: protocol and Alt-Svc', () => {
  it('explains an Alt-Svc that advertises HTTP/3', async () => {
    const result = await runCliHere(['check', `${altSvc.url}/x`, '--origin', ORIGIN])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Alt-Svc: h3=":443"; ma=86400')
    expect(result.stdout).toContain(
      'HTTP/3 advertised (h3 at ":443"): a browser may send later requests to this origin over QUIC (UDP)',
    )
    const { report } = await checkJson([`${altSvc.url}/x`, '--origin', ORIGIN])
    expect(report.altSvc).toMatchObject({ value: 'h3=":443"; ma=86400', http3: true })
  })

  it('reports HTTP/2 negotiated by ALPN on an https server that offers it', async () => {
    const { code, report } = await checkJson([`${h2Mock.origin}/x`, '--origin', ORIGIN, '--insecure'])
    expect(code).toBe(0)
    expect(report.protocol).toEqual({
      alpn: 'h2',
      note: 'HTTP/2, negotiated by ALPN (the browser offers h2 and http/1.1)',
    })
  })

  it('refuses a self-signed certificate without --insecure, as the browser does until you accept it', async () => {
    const { code, report } = await checkJson([`${h2Mock.origin}/x`, '--origin', ORIGIN])
    expect(code).toBe(2)
    expect(report.verdict.outcome).toBe('unreachable')
    expect(report.protocol.alpn).toBeNull()
  })
})

describe('check: Local Network Access', () => {
  const PUBLIC_PAGE = 'https://app.example.com'

  it('prints the prediction for a public page calling a loopback server, and exits 0 while CORS passes', async () => {
    const url = `${mock.origin}/users?cors=reflect`
    const result = await runCliHere(['check', url, '--origin', PUBLIC_PAGE, '--page-address-space', 'public'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'Local Network Access: public page → loopback target, permission loopback-network: needs',
    )
    expect(result.stdout).toContain(
      `Access to fetch at '${url}' from origin '${PUBLIC_PAGE}' has been blocked by CORS policy: Permission was denied for this request to access the \`loopback\` address space.`,
    )
    expect(result.stdout).toContain(`corsDevProxy({ '/api': '${mock.origin}' })`)
  })

  it('puts it in --json, worded for XMLHttpRequest with --xhr, and exits 1 when it blocks whatever the user says', async () => {
    const page = 'http://app.example.com'
    const { code, report } = await checkJson([
      `${mock.origin}/users?cors=reflect`,
      '--origin',
      page,
      '--page-address-space',
      'public',
      '--xhr',
    ])
    expect(code).toBe(1)
    expect(report.verdict.outcome).toBe('readable')
    expect(report.localNetworkAccess).toMatchObject({
      applies: true,
      pageSpace: 'public',
      targetSpace: 'loopback',
      outcome: 'blocked',
      scriptError: 'an error event, status 0',
    })
    expect(report.localNetworkAccess?.message).toMatch(/^Access to XMLHttpRequest at .* not a secure context/)
  })

  it('leaves it out for a loopback page', async () => {
    const { report } = await checkJson([`${mock.origin}/users?cors=reflect`, '--origin', ORIGIN])
    expect(report).not.toHaveProperty('localNetworkAccess')
  })
})

describe('check: a redirect to a URL with user:password (Chromium 156, measured in test/browser/sequence-cases-userinfo.ts)', () => {
  let server: StartedServer<ReturnType<typeof createServer>>
  /** What reached the server: `METHOD path Authorization`. */
  const seen: string[] = []

  beforeAll(async () => {
    server = await listen(
      createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`)
        const cors = { 'access-control-allow-origin': '*' }
        if (req.url === '/r') {
          res.writeHead(302, { ...cors, location: `http://user:pass@127.0.0.1:${server.port}/t` }).end()
        } else if (req.headers.authorization === 'Basic dXNlcjpwYXNz') {
          res.writeHead(200, cors).end('{}')
        } else {
          res.writeHead(401, { ...cors, 'www-authenticate': 'Basic realm="check"' }).end()
        }
      }),
    )
  })

  afterAll(async () => {
    await server?.close()
  })

  it('same origin, XMLHttpRequest: follows without sending them, answers the 401 Basic challenge, exit 0', async () => {
    seen.length = 0
    const { code, report } = await checkJson([`${server.url}/r`, '--origin', server.url, '--xhr'])
    expect(code).toBe(0)
    expect(report.verdict).toMatchObject({ outcome: 'readable' })
    expect(report.exchanges.map((exchange) => [exchange.url, exchange.status])).toEqual([
      [`${server.url}/r`, 302],
      [`http://user:pass@127.0.0.1:${server.port}/t`, 401],
      [`http://user:pass@127.0.0.1:${server.port}/t`, 200],
    ])
    expect(seen).toEqual(['GET /r -', 'GET /t -', 'GET /t Basic dXNlcjpwYXNz'])
  })

  it('same origin, fetch: fails, and says Chromium prints nothing, exit 1', async () => {
    seen.length = 0
    const result = await runCliHere(['check', `${server.url}/r`, '--origin', server.url])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Verdict: failed')
    expect(result.stdout).toContain('(nothing in the console; the script sees "TypeError: Failed to fetch")')
    expect(result.stdout).toContain('Fix: make the server answer')
    expect(seen).toEqual(['GET /r -'])
  })

  it("from another origin: Chromium's CORS error, exit 1", async () => {
    const { code, report } = await checkJson([`${server.url}/r`, '--origin', ORIGIN])
    expect(code).toBe(1)
    expect(report.verdict).toMatchObject({
      outcome: 'blocked',
      message: `Access to fetch at '${server.url}/r' from origin '${ORIGIN}' has been blocked by CORS policy: Redirect location '' contains a username and password, which is disallowed for cross-origin requests.`,
    })
  })
})
