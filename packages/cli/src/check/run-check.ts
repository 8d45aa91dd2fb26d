/*
 * check/: `cors-dev-proxy check <url>`, the browser's verdict on a call without a browser.
 * `runCheckCall` (here) runs the core's `checkCors` and `classifyRequest` on the real URL; the
 * negotiated protocol (negotiated-protocol.ts, an ALPN probe), `Alt-Svc` (alt-svc.ts) and the
 * body's type (body-type.ts) complete it; format-report.ts writes the text report.
 */
import {
  type AddressSpace,
  type CheckCorsResult,
  type CorsError,
  type CorsInitiator,
  type CorsResponseInput,
  checkCors,
  classifyRequest,
  isSameOrigin,
  type LocalNetworkAccessPrediction,
  predictLocalNetworkAccess,
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
  /** fetch's `redirect` option. */
  readonly redirect?: 'follow' | 'manual' | 'error'
  /** Milliseconds to wait for each answer. */
  readonly timeout: number
  /** Verify the server's TLS certificate. */
  readonly secure: boolean
  /** The page's address space for Local Network Access, when its host cannot be placed here. */
  readonly pageSpace?: AddressSpace | undefined
}

/** One request the check sent and what came back. */
export interface CheckExchange {
  readonly kind: 'preflight' | 'request'
  /** The URL of this hop (a redirect leads to another). */
  readonly url: string
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
    /**
     * `readable`: the script gets the response; `blocked`: a CORS error; `failed`: the browser
     * fails the call without a CORS error (too many redirects, a redirect to `data:`,
     * `--redirect error`); `unreachable`: no answer.
     */
    readonly outcome: 'readable' | 'blocked' | 'failed' | 'unreachable'
    readonly stage?: 'preflight' | 'response'
    /** Chromium's console message, word for word, when blocked; the network error when unreachable. */
    readonly message?: string
    readonly fix?: string
    readonly error?: CorsError
    /** When readable: the response header names the script can read (lowercase, sorted). */
    readonly readableHeaders?: readonly string[]
  }
  /**
   * Chromium's Local Network Access prediction (worded for the initiator), when it comes into
   * play: a public page calling a local or loopback target. Chromium applies it before CORS.
   */
  readonly localNetworkAccess?: LocalNetworkAccessPrediction
  /**
   * Set when `check` sent a request whose method is not safe (not GET, HEAD or OPTIONS): unlike
   * the overlay's probe, `check` sends the call the user asked for, and says so.
   */
  readonly sideEffectNote?: string
  /** 0 readable, 1 blocked or failed, 2 unreachable. */
  readonly exitCode: 0 | 1 | 2
}

/** Methods that do not change anything on the server (RFC 9110 §9.2.1); the others may. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The note for a sent request that may have changed data, or `undefined`. */
function sideEffectNoteOf(exchanges: readonly CheckExchange[]): string | undefined {
  const unsafe = exchanges.find(
    (exchange) => exchange.kind === 'request' && !SAFE_METHODS.has(exchange.method),
  )
  return unsafe === undefined
    ? undefined
    : `note: check sent a real ${unsafe.method} to ${unsafe.url}; it may have changed data on the server`
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
        initiator: input.initiator,
        redirect: input.redirect,
        ...(input.pageSpace === undefined ? {} : { pageSpace: input.pageSpace }),
      },
      { timeout: input.timeout, secure: input.secure },
    ),
    negotiatedProtocol(new URL(input.url), { timeout: input.timeout, secure: input.secure }),
  ])
  const exchanges = exchangesOf(result)
  const last = result.response ?? result.preflightResponse
  const altSvcValue = corsHeadersOf(last)['alt-svc']
  const verdict = verdictOf(result)
  const lna = result.localNetworkAccess
  // checkCors words it for fetch; the spaces are known now, so XMLHttpRequest's wording is pure.
  const localNetworkAccess =
    lna === undefined || input.initiator === 'fetch'
      ? lna
      : predictLocalNetworkAccess({ ...input, pageSpace: lna.pageSpace, targetSpace: lna.targetSpace })
  const lnaBlocks = localNetworkAccess?.outcome === 'blocked'
  const sideEffectNote = sideEffectNoteOf(exchanges)
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
    ...(localNetworkAccess === undefined ? {} : { localNetworkAccess }),
    ...(sideEffectNote === undefined ? {} : { sideEffectNote }),
    exitCode: verdict.outcome === 'unreachable' ? 2 : verdict.outcome !== 'readable' || lnaBlocks ? 1 : 0,
  }
}

/** The verdict as the report states it. */
function verdictOf(result: CheckCorsResult): CheckReport['verdict'] {
  // The script's call throws before any request (a rule of the Fetch standard's `new Request`
  // the flags could not rule out): the exception is the whole story.
  if (result.scriptError !== undefined) {
    return { outcome: 'failed', message: result.scriptError, ...(result.fix ? { fix: result.fix } : {}) }
  }
  if (result.networkError !== undefined) {
    // An answer came, yet the browser failed the call: not a CORS error, not an unreachable server.
    const outcome = result.response === undefined ? 'unreachable' : 'failed'
    return { outcome, message: result.message, ...(result.fix ? { fix: result.fix } : {}) }
  }
  if (result.allowed) {
    return {
      outcome: 'readable',
      ...(result.fix ? { fix: result.fix } : {}),
      ...(result.readableHeaders ? { readableHeaders: result.readableHeaders } : {}),
    }
  }
  return {
    outcome: 'blocked',
    ...(result.stage ? { stage: result.stage } : {}),
    ...(result.message ? { message: result.message } : {}),
    ...(result.fix ? { fix: result.fix } : {}),
    ...(result.error ? { error: result.error } : {}),
  }
}

/** The exchanges as sent: every preflight and hop, the headers a browser puts on each, and the answer's CORS headers. */
function exchangesOf(result: CheckCorsResult): CheckExchange[] {
  return result.exchanges.map((exchange) => ({
    kind: exchange.kind,
    url: exchange.url,
    method: exchange.method,
    requestHeaders: Object.fromEntries(exchange.headers),
    status: exchange.response.status,
    responseHeaders: corsHeadersOf(exchange.response),
  }))
}
