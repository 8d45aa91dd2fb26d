import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer, sendHttp2Request } from '../../../../test/support/servers.js'
import type { CorsOptions } from '../../src/config/cors-options.js'
import { type ResolvedCorsOptions, resolveCorsOptions } from '../../src/config/resolve-cors-options.js'
import { type CorsDecision, createCorsDecider } from '../../src/cors/cors-decision.js'
import { answerPreflight, type PreflightResponse } from '../../src/cors/preflight-answer.js'
import type { ProxyRequest } from '../../src/http/proxy-types.js'
import { referenceDecision, referencePreflight } from '../support/reference-cors.js'

/**
 * `answerPreflight` writes a precomputed head in one `writeHead`; the reference sets the same
 * decision header by header. Both are served side by side and must answer alike, whatever a
 * middleware ahead of them set on the response.
 */

const PAGE = 'http://localhost:5173'

const POLICIES: Record<string, boolean | CorsOptions> = {
  default: true,
  reflect: { origin: true },
  any: { origin: '*', exposedHeaders: ['x-total'] },
  list: { origin: [PAGE, /\.test$/], credentials: true, maxAge: 600 },
  fixedHeaders: { allowedHeaders: ['content-type', 'x-a'], methods: 'GET,PUT' },
  status200: { optionsSuccessStatus: 200, credentials: true },
}

/** What a middleware ahead of the CORS answer may already have set. */
const BEFORE: Record<string, Array<[string, string | string[]]>> = {
  nothing: [],
  unrelated: [['x-before', '1']],
  conflicting: [
    ['access-control-allow-origin', 'http://backend.test'],
    ['access-control-allow-methods', 'GET'],
  ],
  // Over HTTP/1.1 only: HTTP/2 clients refuse a 204 with a Content-Length, however it got there.
  contentLength: [['content-length', '7']],
  vary: [['vary', 'Accept-Encoding']],
  varyOrigin: [['vary', 'origin']],
  varyStar: [['vary', '*']],
  varyList: [['vary', ['Accept-Encoding', 'Origin, Cookie']]],
}

const policies = new Map<string, ResolvedCorsOptions>(
  Object.entries(POLICIES).map(([name, options]) => [
    name,
    resolveCorsOptions(options) as ResolvedCorsOptions,
  ]),
)
const deciders = new Map([...policies].map(([name, policy]) => [name, createCorsDecider(policy)]))

type AnyResponse = ServerResponse | Http2ServerResponse

/** `/<fast|reference>/<policy>/<before>`: answers the preflight one way or the other. */
function handle(req: IncomingMessage | Http2ServerRequest, res: AnyResponse): void {
  const [, way = '', name = '', before = ''] = (req.url ?? '').split('/')
  const policy = policies.get(name) as ResolvedCorsOptions
  for (const [header, value] of BEFORE[before] ?? []) res.setHeader(header, value)
  if (way === 'fast') {
    const decision = deciders.get(name)?.(req as ProxyRequest) as CorsDecision
    answerPreflight(res as PreflightResponse, decision, policy)
  } else {
    const headers = req.headers as Record<string, string | undefined>
    referencePreflight(res, referenceDecision(policy, { method: req.method ?? '', headers }), policy)
  }
}

let http1: StartedServer<ReturnType<typeof createServer>>
let http2: StartedServer<ReturnType<typeof createHttp2Server>>
beforeAll(async () => {
  http1 = await listen(createServer(handle))
  http2 = await listen(createHttp2Server(handle))
})
afterAll(async () => {
  await http1.close()
  await http2.close()
})

interface Answer {
  status: number
  headers: string[]
  body: string
}

/** One HTTP/1.1 answer, its header lines as sent (but `Date`), sorted: order between names carries no meaning. */
function ask(path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${http1.url}${path}`, { method: 'OPTIONS', headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => {
        const lines: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]?.toLowerCase() !== 'date')
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
        }
        resolve({ status: res.statusCode ?? 0, headers: lines.sort(), body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

const REQUESTS: Array<[string, Record<string, string>]> = [
  [
    'asking for headers',
    {
      origin: PAGE,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type,x-a',
    },
  ],
  ['asking for none', { origin: PAGE, 'access-control-request-method': 'DELETE' }],
  ['from a refused origin', { origin: 'https://evil.example', 'access-control-request-method': 'PUT' }],
]

describe('answerPreflight', () => {
  const cases = [...policies.keys()].flatMap((policy) =>
    Object.keys(BEFORE).map((before) => [policy, before]),
  )

  it.each(cases)(
    'answers as the header-by-header path does (policy %s, set before: %s)',
    async (policy, before) => {
      for (const [what, headers] of REQUESTS) {
        // Twice: the second answer comes from the decision the first one left behind.
        for (let round = 0; round < 2; round++) {
          const fast = await ask(`/fast/${policy}/${before}`, headers)
          const reference = await ask(`/reference/${policy}/${before}`, headers)
          expect(fast, what).toEqual(reference)
        }
      }
    },
  )

  it.each([...policies.keys()])(
    'answers HTTP/2 clients as the header-by-header path does (policy %s)',
    async (policy) => {
      for (const before of ['nothing', 'conflicting', 'vary']) {
        for (const [what, headers] of REQUESTS) {
          const send = (way: string) =>
            sendHttp2Request(`${http2.url}/${way}/${policy}/${before}`, { ':method': 'OPTIONS', ...headers })
          const { date: _fastDate, ...fast } = (await send('fast')).headers
          const { date: _referenceDate, ...reference } = (await send('reference')).headers
          expect(fast, `${before}, ${what}`).toEqual(reference)
        }
      }
    },
  )
})
