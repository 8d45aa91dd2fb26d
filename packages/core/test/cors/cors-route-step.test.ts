import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import {
  captureLogSink,
  listen,
  type StartedServer,
  sendHttp2Request,
  sendRequest,
} from '../../../../test/support/servers.js'
import type { CorsOptions } from '../../src/config/cors-options.js'
import { type ResolvedCorsOptions, resolveCorsOptions } from '../../src/config/resolve-cors-options.js'
import { mergeVary, varyNames } from '../../src/http/vary.js'
import type { CorsDevProxyOptions, Routes } from '../../src/index.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'
import { referenceDecision } from '../support/reference-cors.js'

const PAGE = 'http://localhost:5173'
const PREFLIGHT = {
  origin: PAGE,
  'access-control-request-method': 'PUT',
  'access-control-request-headers': 'x-a',
}

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A backend with CORS opinions of its own, which a route with `cors` must replace. */
interface Target extends StartedServer<ReturnType<typeof createServer>> {
  seen: string[]
}

async function startTarget(): Promise<Target> {
  const seen: string[] = []
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url}`)
      res.setHeader('access-control-allow-origin', 'http://backend.test')
      res.setHeader('access-control-max-age', '86400')
      res.setHeader('vary', 'Accept-Encoding')
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ method: req.method }))
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

describe('a route with cors', () => {
  it('answers preflights itself with 204, without reaching the target', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: { allowedHeaders: ['x-a'] } } })
    const res = await sendRequest(`${proxy.url}/api/users`, { method: 'OPTIONS', headers: PREFLIGHT })
    expect(res.status).toBe(204)
    expect(res.body.length).toBe(0)
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'x-a',
      vary: 'Origin',
    })
    expect(target.seen).toEqual([])
  })

  it("puts its headers on proxied answers, replacing the backend's and merging Vary", async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: { credentials: true } } })
    const res = await sendRequest(`${proxy.url}/api/users`, { headers: { origin: PAGE } })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe(PAGE)
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    expect(res.headers['access-control-max-age']).toBeUndefined()
    expect(res.headers.vary).toBe('Accept-Encoding, Origin')
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET' })
  })

  it('leaves no allow-origin for an origin the policy refuses, even if the backend allows it', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: true } })
    const res = await sendRequest(`${proxy.url}/api/users`, { headers: { origin: 'http://backend.test' } })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    expect(res.headers.vary).toBe('Accept-Encoding, Origin')
  })

  it('puts its headers on error answers (502 for a target that is down)', async () => {
    const proxy = await startProxy({ '/api': { target: await refusedUrl(), cors: true } })
    const res = await sendRequest(`${proxy.url}/api/users`, {
      headers: { origin: PAGE, accept: 'application/json' },
    })
    expect(res.status).toBe(502)
    expect(res.headers['access-control-allow-origin']).toBe(PAGE)
    expect(res.headers.vary).toBe('Origin')
  })

  it('forwards the preflight with preflightContinue, with its own headers', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: { preflightContinue: true } } })
    const res = await sendRequest(`${proxy.url}/api/users`, { method: 'OPTIONS', headers: PREFLIGHT })
    expect(res.status).toBe(200)
    expect(target.seen).toEqual(['OPTIONS /users'])
    expect(res.headers['access-control-allow-origin']).toBe(PAGE)
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE')
    expect(res.headers['access-control-max-age']).toBeUndefined()
  })

  it('forwards an OPTIONS that is not a preflight', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: true } })
    const res = await sendRequest(`${proxy.url}/api/users`, { method: 'OPTIONS', headers: { origin: PAGE } })
    expect(target.seen).toEqual(['OPTIONS /users'])
    expect(res.headers['access-control-allow-origin']).toBe(PAGE)
  })

  it('takes the shared cors option, and an async origin function', async () => {
    const target = await startTarget()
    const proxy = await startProxy(
      { '/api': target.url },
      { cors: { origin: async (origin) => origin === 'http://127.0.0.1:9' } },
    )
    const allowed = await sendRequest(`${proxy.url}/api/x`, { headers: { origin: 'http://127.0.0.1:9' } })
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:9')
    const refused = await sendRequest(`${proxy.url}/api/x`, { headers: { origin: PAGE } })
    // The origin function turned CORS off for this request: the backend's answer passes as is.
    expect(refused.headers['access-control-allow-origin']).toBe('http://backend.test')
  })

  it('answers 500 when the origin function fails, and the log names the function and the route', async () => {
    const target = await startTarget()
    const sink = captureLogSink()
    const proxy = await startProxy(
      {
        '/api': {
          target: target.url,
          cors: { origin: (_origin, callback) => callback(new Error('registry down')) },
        },
      },
      { logger: sink, log: 'error' },
    )
    const res = await sendRequest(`${proxy.url}/api/x`, { headers: { origin: PAGE } })
    expect(res.status).toBe(500)
    expect(target.seen).toEqual([])
    expect(sink.lines.map((line) => line.message)).toContainEqual(
      expect.stringContaining(
        "500 GET /api/x: the cors.origin function of route '/api' threw: registry down",
      ),
    )
  })

  it.each(['h2', 'h2c'] as const)('works for HTTP/2 clients (%s)', async (kind) => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': { target: target.url, cors: true } }, {}, kind)
    const preflight = await sendHttp2Request(`${proxy.url}/api/users`, { ':method': 'OPTIONS', ...PREFLIGHT })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(PAGE)
    const get = await sendHttp2Request(`${proxy.url}/api/users`, { origin: PAGE })
    expect(get.status).toBe(200)
    expect(get.headers['access-control-allow-origin']).toBe(PAGE)
    expect(get.headers.vary).toBe('Accept-Encoding, Origin')
    expect(get.headers['access-control-max-age']).toBeUndefined()
  })
})

describe("a route with cors, over the backend's own headers", () => {
  /** A backend that answers with the `vary` and `access-control-*` headers the query names. */
  async function startEchoTarget() {
    const started = await listen(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        const query = new URL(req.url ?? '/', 'http://x').searchParams
        for (const vary of query.getAll('vary')) res.appendHeader('vary', vary)
        for (const line of query.getAll('acl')) {
          const [name = '', value = ''] = line.split('=')
          res.setHeader(`access-control-${name}`, value)
        }
        res.end('ok')
      }),
    )
    cleanup.push(started.close)
    return started
  }

  const policies: Array<[string, boolean | CorsOptions]> = [
    ['default', true],
    ['any', { origin: '*', exposedHeaders: ['x-total'] }],
    ['credentials', { origin: PAGE, credentials: true, exposedHeaders: 'x-a,x-b' }],
  ]
  const backends: Array<[string, string[], string[]]> = [
    ['no Vary', [], []],
    ['its own Vary', ['Accept-Encoding'], []],
    ['Vary naming Origin in lower case', ['origin, Accept-Encoding'], []],
    ['Vary exactly ours', ['Origin'], []],
    ['Vary: *', ['*'], []],
    ['a repeated, spaced Vary', ['Accept-Encoding,  accept-encoding', 'Cookie'], []],
    [
      'CORS headers of its own',
      ['Accept-Encoding'],
      ['allow-origin=*', 'max-age=600', 'expose-headers=x-secret', 'allow-credentials=true'],
    ],
  ]

  it.each(policies)(
    'keeps only its headers and merges Vary as the general path does (%s)',
    async (_name, cors) => {
      const target = await startEchoTarget()
      const proxy = await startProxy({ '/api': { target: target.url, cors } })
      const policy = resolveCorsOptions(cors) as ResolvedCorsOptions
      for (const origin of [undefined, PAGE, 'https://evil.example']) {
        for (const [what, vary, acl] of backends) {
          const query = new URLSearchParams([...vary.map((v) => ['vary', v]), ...acl.map((a) => ['acl', a])])
          const headers = origin === undefined ? {} : { origin }
          // Twice: the second request meets the decision the first one left behind.
          for (let round = 0; round < 2; round++) {
            const res = await sendRequest(`${proxy.url}/api/x?${query}`, { headers })
            const decision = referenceDecision(policy, { method: 'GET', headers })
            const cors = Object.fromEntries(
              Object.entries(res.headers).filter(([name]) => name.startsWith('access-control-')),
            )
            expect(cors, `${origin} ${what}`).toEqual(Object.fromEntries(decision.headers))
            expect(res.headers.vary, `${origin} ${what}`).toBe(mergeVary(varyNames(vary), decision.vary))
          }
        }
      }
    },
  )
})

describe('a route without cors', () => {
  it('forwards preflights untouched and adds nothing', async () => {
    const target = await startTarget()
    const proxy = await startProxy({ '/api': target.url })
    const res = await sendRequest(`${proxy.url}/api/users`, { method: 'OPTIONS', headers: PREFLIGHT })
    expect(target.seen).toEqual(['OPTIONS /users'])
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('http://backend.test')
    expect(res.headers['access-control-max-age']).toBe('86400')
    expect(res.headers.vary).toBe('Accept-Encoding')
  })
})

describe('configuration', () => {
  it('refuses a bad policy when the proxy is created, naming the route', () => {
    expect(() =>
      createCorsDevProxy({
        '/api': { target: 'http://localhost:3000', cors: { origin: '*', credentials: true } },
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CORS', option: "routes['/api'].cors.origin" }))
  })

  it('warns through the logger about a maxAge Chromium caps', async () => {
    const sink = captureLogSink()
    const proxy = createCorsDevProxy(
      { '/api': { target: 'http://localhost:3000', cors: { maxAge: 86400 } } },
      { logger: sink },
    )
    await proxy.close()
    expect(sink.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      expect.stringContaining(
        "routes['/api'].cors.maxAge is 86400 s, but Chromium caches a preflight for at most 7200 s",
      ),
    ])
  })
})
