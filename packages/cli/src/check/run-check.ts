import {
  type CheckCorsResult,
  type CorsError,
  type CorsInitiator,
  type CorsResponseInput,
  checkCors,
  classifyRequest,
  evaluateCors,
  isSameOrigin,
} from '@cors-dev-proxy/core'
import { type AltSvc, readAltSvc } from './alt-svc.js'
import { type NegotiatedProtocol, negotiatedProtocol } from './negotiated-protocol.js'

/** The call `check` makes, as a page's script would make it. */
export interface CheckInput {
  readonly url: string
  /** The page's origin. */
  readonly origin: string
  /** As the script writes it (`patch` stays lowercase). */
  readonly method: string
  /** Headers the script sets, in order; a name given twice is combined as `Headers.append` does. */
  readonly headers: readonly (readonly [name: string, value: string])[]
  readonly credentials: boolean
  /** The body (sent with the actual request only). */
  readonly body?: string | undefined
  readonly initiator: CorsInitiator
  /** Milliseconds to wait for each answer. */
  readonly timeout: number
  /** Verify the server's TLS certificate. */
  readonly secure: boolean
}

/** One request the check sent and what came back. */
export interface CheckExchange {
  readonly kind: 'preflight' | 'request'
  /** The method on the wire (`OPTIONS` for the preflight). */
  readonly method: string
  /** The headers that matter to CORS, as sent. */
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly status: number
  /** The answer's CORS headers (`access-control-*`, `vary`), and `alt-svc` and `location` when present. */
  readonly responseHeaders: Readonly<Record<string, string>>
}

/** Everything `check` found out; `--json` prints exactly this. */
export interface CheckReport {
  readonly url: string
  readonly origin: string
  /** The method as the browser sends it. */
  readonly method: string
  readonly credentials: 'include' | 'same-origin'
  readonly initiator: CorsInitiator
  /** The page and the URL share an origin: CORS does not apply, nothing is preflighted or checked. */
  readonly sameOrigin: boolean
  readonly classification: {
    readonly kind: 'simple' | 'preflight'
    /** Why a preflight is sent (empty for a simple request). */
    readonly reasons: readonly { readonly code: string; readonly header?: string; readonly message: string }[]
    readonly unsafeHeaderNames: readonly string[]
    /** Headers the browser drops because a script may not set them. */
    readonly forbiddenHeaderNames: readonly string[]
  }
  readonly exchanges: readonly CheckExchange[]
  readonly protocol: NegotiatedProtocol
  readonly altSvc: AltSvc | null
  readonly verdict: {
    /** `readable`: the script gets the response; `blocked`: a CORS error; `unreachable`: no answer. */
    readonly outcome: 'readable' | 'blocked' | 'unreachable'
    readonly stage?: 'preflight' | 'response'
    /** Chromium's console message, word for word, when blocked; the network error when unreachable. */
    readonly message?: string
    readonly fix?: string
    readonly error?: CorsError
    /** When readable: the response header names the script can read (lowercase, sorted). */
    readonly readableHeaders?: readonly string[]
  }
  /** 0 readable, 1 blocked, 2 unreachable. */
  readonly exitCode: 0 | 1 | 2
}

/** The response headers a CORS reader looks at. */
function corsHeadersOf(response: CorsResponseInput | undefined): Record<string, string> {
  const result: Record<string, string> = {}
  if (response === undefined) return result
  for (const [name, value] of Object.entries(response.headers as Record<string, string | string[]>)) {
    const lower = name.toLowerCase()
    if (lower.startsWith('access-control-') || ['vary', 'alt-svc', 'location'].includes(lower)) {
      result[lower] = Array.isArray(value) ? value.join(', ') : String(value)
    }
  }
  return result
}

/** Several values of one header name combined, as `Headers.append` does. */
function combined(headers: CheckInput['headers']): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of headers) {
    const lower = name.toLowerCase()
    result[lower] = result[lower] === undefined ? value : `${result[lower]}, ${value}`
  }
  return result
}

/**
 * Runs `check`: classifies the call with the Fetch rules, sends the preflight and the request
 * as Chromium would (the core's `checkCors`), asks the server which HTTP version a browser would
 * get, and words the verdict for the initiator (`fetch` or `XMLHttpRequest`).
 *
 * @example
 * const report = await runCheckCall({ url: 'http://127.0.0.1:3000/x', origin: 'http://localhost:5173', method: 'PUT', headers: [['content-type', 'application/json']], credentials: false, initiator: 'fetch', timeout: 10000, secure: true })
 * report.verdict.outcome // 'blocked'
 */
export async function runCheckCall(input: CheckInput): Promise<CheckReport> {
  const headers = combined(input.headers)
  const request = {
    url: input.url,
    origin: input.origin,
    method: input.method,
    headers,
    credentials: input.credentials ? ('include' as const) : ('same-origin' as const),
    initiator: input.initiator,
  }
  const classification = classifyRequest(request)
  const [result, protocol] = await Promise.all([
    checkCors(
      {
        url: input.url,
        origin: input.origin,
        method: input.method,
        headers,
        credentials: input.credentials,
        body: input.body,
      },
      { timeout: input.timeout, secure: input.secure },
    ),
    negotiatedProtocol(new URL(input.url), { timeout: input.timeout, secure: input.secure }),
  ])
  const exchanges = exchangesOf(result, classification, input.origin, headers)
  const last = result.response ?? result.preflightResponse
  const altSvcValue = corsHeadersOf(last)['alt-svc']
  const verdict = verdictOf(result, request)
  return {
    url: new URL(input.url).href,
    origin: input.origin,
    method: classification.method,
    credentials: request.credentials,
    initiator: input.initiator,
    sameOrigin: isSameOrigin(input.url, input.origin),
    classification: {
      kind: classification.kind,
      reasons: classification.reasons.map((reason) => ({ ...reason })),
      unsafeHeaderNames: classification.unsafeHeaderNames,
      forbiddenHeaderNames: classification.forbiddenHeaderNames,
    },
    exchanges,
    protocol,
    altSvc: altSvcValue === undefined ? null : readAltSvc(altSvcValue),
    verdict,
    exitCode: verdict.outcome === 'readable' ? 0 : verdict.outcome === 'blocked' ? 1 : 2,
  }
}

/** The verdict, worded for the initiator: XMLHttpRequest's message differs from fetch's (Chromium's own wording). */
function verdictOf(
  result: CheckCorsResult,
  request: Parameters<typeof evaluateCors>[0],
): CheckReport['verdict'] {
  if (result.networkError !== undefined) {
    return { outcome: 'unreachable', message: result.message, ...(result.fix ? { fix: result.fix } : {}) }
  }
  const worded = evaluateCors(request, result.preflightResponse, result.response)
  if (worded.allowed) {
    return {
      outcome: 'readable',
      ...(worded.fix ? { fix: worded.fix } : {}),
      ...(worded.readableHeaders ? { readableHeaders: worded.readableHeaders } : {}),
    }
  }
  return {
    outcome: 'blocked',
    ...(worded.stage ? { stage: worded.stage } : {}),
    ...(worded.message ? { message: worded.message } : {}),
    ...(worded.fix ? { fix: worded.fix } : {}),
    ...(worded.error ? { error: worded.error } : {}),
  }
}

/** The exchanges as sent: the headers a browser puts on each, and the answer's CORS headers. */
function exchangesOf(
  result: CheckCorsResult,
  classification: ReturnType<typeof classifyRequest>,
  origin: string,
  headers: Readonly<Record<string, string>>,
): CheckExchange[] {
  const exchanges: CheckExchange[] = []
  if (result.preflightResponse !== undefined) {
    const sent: Record<string, string> = { origin, 'access-control-request-method': classification.method }
    if (classification.unsafeHeaderNames.length > 0) {
      sent['access-control-request-headers'] = classification.unsafeHeaderNames.join(',')
    }
    exchanges.push({
      kind: 'preflight',
      method: 'OPTIONS',
      requestHeaders: sent,
      status: result.preflightResponse.status,
      responseHeaders: corsHeadersOf(result.preflightResponse),
    })
  }
  if (result.response !== undefined) {
    const sent: Record<string, string> = { origin }
    for (const [name, value] of Object.entries(headers)) {
      if (!classification.forbiddenHeaderNames.includes(name)) sent[name] = value
    }
    exchanges.push({
      kind: 'request',
      method: classification.method,
      requestHeaders: sent,
      status: result.response.status,
      responseHeaders: corsHeadersOf(result.response),
    })
  }
  return exchanges
}
