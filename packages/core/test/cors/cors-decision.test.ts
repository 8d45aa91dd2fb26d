import { describe, expect, it } from 'vitest'
import type { CorsOptions, CorsOriginResult } from '../../src/config/cors-options.js'
import { type ResolvedCorsOptions, resolveCorsOptions } from '../../src/config/resolve-cors-options.js'
import { type CorsDecision, createCorsDecider } from '../../src/cors/cors-decision.js'
import type { ProxyRequest } from '../../src/http/proxy-types.js'
import { type ReferenceRequest, referenceDecision } from '../support/reference-cors.js'

const PAGE = 'http://localhost:5173'

/** Policies without an origin function: their decisions are built once and handed out again. */
const POLICIES: Array<[string, boolean | CorsOptions]> = [
  ['cors: true (loopback origins)', true],
  ['origin: true', { origin: true }],
  ["origin: '*'", { origin: '*' }],
  ['origin string', { origin: PAGE }],
  ['origin list with a RegExp', { origin: [PAGE, /\.test$/] }],
  ['origin RegExp', { origin: /^http:\/\/app\./ }],
  ['credentials, exposedHeaders, maxAge', { credentials: true, exposedHeaders: ['x-total'], maxAge: 600 }],
  ["'*' with exposedHeaders", { origin: '*', exposedHeaders: 'x-total,x-page' }],
  ['allowedHeaders and methods', { allowedHeaders: ['content-type'], methods: ['GET', 'PUT'] }],
  ['empty allowedHeaders and methods', { allowedHeaders: [], methods: [] }],
  ['optionsSuccessStatus: 200', { optionsSuccessStatus: 200 }],
  ['preflightContinue', { preflightContinue: true }],
]

function preflight(origin: string, requested?: string): ReferenceRequest {
  return {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': requested },
  }
}

/** Requests that reach every branch, in an order that makes remembered answers meet new ones. */
const REQUESTS: ReferenceRequest[] = [
  { method: 'GET', headers: {} },
  { method: 'GET', headers: { origin: PAGE } },
  { method: 'GET', headers: { origin: 'https://evil.example' } },
  { method: 'POST', headers: { origin: 'http://app.test' } },
  preflight(PAGE, 'content-type'),
  preflight(PAGE, 'content-type'),
  preflight(PAGE, 'x-a,x-b'),
  preflight(PAGE),
  preflight(PAGE, ''),
  preflight('https://evil.example', 'content-type'),
  preflight('http://app.test', 'x-a'),
  { method: 'OPTIONS', headers: { origin: PAGE } },
  { method: 'OPTIONS', headers: {} },
  { method: 'GET', headers: { origin: 'null' } },
]

function asRequest(req: ReferenceRequest): ProxyRequest {
  return { method: req.method, headers: { ...req.headers } } as unknown as ProxyRequest
}

function resolved(options: boolean | CorsOptions): ResolvedCorsOptions {
  const policy = resolveCorsOptions(options)
  if (policy === undefined) throw new Error('expected a policy')
  return policy
}

/** The decision as the reference builds it, with the derived fields the decider precomputes. */
function expected(policy: ResolvedCorsOptions, req: ReferenceRequest, result?: CorsOriginResult) {
  const decision = referenceDecision(policy, req, result)
  const head: string[] = []
  if (decision.preflight && !decision.disabled) {
    for (const [name, value] of decision.headers) head.push(name, value)
    if (decision.vary.length > 0) head.push('vary', decision.vary.join(', '))
    if (policy.optionsSuccessStatus !== 204) head.push('content-length', '0')
  }
  return {
    ...decision,
    varyValue: decision.vary.length === 0 ? undefined : decision.vary.join(', '),
    preflightHead: head,
  }
}

function plain(decision: CorsDecision) {
  return {
    preflight: decision.preflight,
    disabled: decision.disabled,
    headers: decision.headers.map(([name, value]) => [name, value]),
    vary: [...decision.vary],
    varyValue: decision.varyValue,
    preflightHead: [...decision.preflightHead],
  }
}

describe('createCorsDecider', () => {
  it.each(POLICIES)('remembers answers equal to the general path (%s)', (_name, options) => {
    const policy = resolved(options)
    const decide = createCorsDecider(policy)
    // Forward, then backward: the second pass is answered from what the first remembered.
    for (const req of [...REQUESTS, ...[...REQUESTS].reverse()]) {
      const decision = decide(asRequest(req))
      if (decision instanceof Promise) throw new Error('a policy without a function decides at once')
      expect(plain(decision), `${req.method} ${JSON.stringify(req.headers)}`).toEqual(expected(policy, req))
    }
  })

  it('hands the same decision to requests with the same answer, and a new one when it differs', () => {
    const decide = createCorsDecider(resolved(true))
    const first = decide(asRequest(preflight(PAGE, 'content-type')))
    expect(decide(asRequest(preflight(PAGE, 'content-type')))).toBe(first)
    expect(decide(asRequest(preflight(PAGE, 'x-a')))).not.toBe(first)
    expect(decide(asRequest({ method: 'GET', headers: { origin: PAGE } }))).toBe(
      decide(asRequest({ method: 'GET', headers: { origin: PAGE } })),
    )
  })

  it('stays right past the number of origins it remembers', () => {
    const policy = resolved({ origin: true })
    const decide = createCorsDecider(policy)
    for (let round = 0; round < 2; round++) {
      for (let port = 3000; port < 3200; port++) {
        for (const req of [
          { method: 'GET', headers: { origin: `http://localhost:${port}` } },
          preflight(`http://localhost:${port}`, port % 2 === 0 ? 'x-even' : undefined),
        ]) {
          expect(plain(decide(asRequest(req)) as CorsDecision)).toEqual(expected(policy, req))
        }
      }
    }
  })

  it.each<[string, CorsOriginResult]>([
    ['true', true],
    ['false', false],
    ["'*'", '*'],
    ['the page', PAGE],
    ['another origin', 'https://other.example'],
    ['a list', [PAGE, /\.test$/]],
  ])('builds the general answer for an origin function answering %s', async (_name, result) => {
    for (const options of [{}, { credentials: true, maxAge: 60 }, { optionsSuccessStatus: 200 }]) {
      const policy = resolved({ ...options, origin: () => result })
      const decide = createCorsDecider(policy)
      for (const req of REQUESTS) {
        const decision = await decide(asRequest(req))
        expect(plain(decision)).toEqual(expected(policy, req, result))
      }
    }
  })
})
