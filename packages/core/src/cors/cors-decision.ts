import type { OutgoingHttpHeader } from 'node:http'
import type { CorsOriginFunction, CorsOriginResult } from '../config/cors-options.js'
import type { ResolvedCorsOptions } from '../config/resolve-cors-options.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { mergeVary, varyNames } from '../http/vary.js'

/** A response header to set: lowercase name and value. */
export type CorsHeader = readonly [name: string, value: string]

/** What the CORS policy answers for one request. */
export interface CorsDecision {
  /** The request is a CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
  readonly preflight: boolean
  /** The origin function turned CORS off for this request: no CORS headers, and a preflight is passed on. */
  readonly disabled: boolean
  /** The CORS headers, to set on the answer (replacing any the backend sent). */
  readonly headers: readonly CorsHeader[]
  /** Request headers the answer depended on, to add to `Vary`. */
  readonly vary: readonly string[]
}

/** Decides per request; synchronous unless the policy's origin is a function. */
export type CorsDecider = (req: ProxyRequest) => CorsDecision | Promise<CorsDecision>

/** The part of a response the CORS steps use; `http` and `http2` responses both fit it. */
export interface CorsResponse {
  statusCode: number
  readonly headersSent: boolean
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  getHeader(name: string): OutgoingHttpHeader | undefined
  end(): unknown
}

/**
 * A CORS preflight is an OPTIONS request with `Origin` and `Access-Control-Request-Method`
 * (Fetch standard §4.8). Any other OPTIONS is an ordinary request: treating every OPTIONS as
 * a preflight, as the `cors` package does, swallows the backend's own OPTIONS handling.
 */
export function isCorsPreflight(req: ProxyRequest): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  )
}

/** Calls a `cors`-style origin function, whichever way it answers: return value, promise or callback. */
function callOriginFunction(
  decide: CorsOriginFunction,
  origin: string | undefined,
): Promise<CorsOriginResult> {
  return new Promise((resolve, reject) => {
    let done = false
    const callback = (err: Error | null, allow?: CorsOriginResult): void => {
      if (done) return
      done = true
      if (err) reject(err)
      else resolve(allow ?? false)
    }
    const returned = decide(origin, callback)
    if (returned !== undefined) {
      Promise.resolve(returned).then(
        (value) => callback(null, value),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    }
  })
}

/**
 * Builds the per-request decision of a resolved policy. Everything that does not depend on the
 * request is computed here, once: the static headers of preflight answers and of other answers.
 */
export function createCorsDecider(policy: ResolvedCorsOptions): CorsDecider {
  const common: CorsHeader[] = []
  if (policy.credentials) common.push(['access-control-allow-credentials', 'true'])
  const preflightStatic: CorsHeader[] = [...common]
  if (policy.allowMethods !== '') preflightStatic.push(['access-control-allow-methods', policy.allowMethods])
  if (policy.allowHeaders !== undefined && policy.allowHeaders !== '') {
    preflightStatic.push(['access-control-allow-headers', policy.allowHeaders])
  }
  if (policy.maxAge !== undefined) preflightStatic.push(['access-control-max-age', policy.maxAge])
  const actualStatic: CorsHeader[] = [...common]
  if (policy.exposeHeaders !== undefined && policy.exposeHeaders !== '') {
    // The `cors` package sends Expose-Headers on preflight answers too; harmless, kept for parity.
    const expose: CorsHeader = ['access-control-expose-headers', policy.exposeHeaders]
    preflightStatic.push(expose)
    actualStatic.push(expose)
  }
  const reflectHeaders = policy.allowHeaders === undefined
  const dependsOnOrigin = policy.origin.kind !== 'any'

  function build(req: ProxyRequest, allowOrigin: string | undefined, disabled: boolean): CorsDecision {
    const preflight = isCorsPreflight(req)
    const vary: string[] = dependsOnOrigin ? ['Origin'] : []
    if (disabled) return { preflight, disabled, headers: [], vary }
    const headers: CorsHeader[] =
      allowOrigin === undefined ? [] : [['access-control-allow-origin', allowOrigin]]
    if (!preflight) return { preflight, disabled, headers: headers.concat(actualStatic), vary }
    headers.push(...preflightStatic)
    if (reflectHeaders) {
      // The answer now depends on the requested headers: caches must know (RFC 9110 §12.5.5).
      vary.push('Access-Control-Request-Headers')
      const requested = req.headers['access-control-request-headers']
      if (typeof requested === 'string' && requested !== '')
        headers.push(['access-control-allow-headers', requested])
    }
    return { preflight, disabled, headers, vary }
  }

  /** Interprets what an origin function answered, with the `cors` package's meanings. */
  function fromResult(req: ProxyRequest, origin: string | undefined, result: CorsOriginResult): CorsDecision {
    if (result === false || (result as unknown) === '' || result === undefined || result === null) {
      return build(req, undefined, true)
    }
    if (result === true) return build(req, origin, false)
    if (result === '*') return build(req, '*', false)
    if (typeof result === 'string') return build(req, result === origin ? origin : undefined, false)
    const list = Array.isArray(result) ? result : [result]
    const allowed =
      origin !== undefined &&
      list.some((entry) => (entry instanceof RegExp ? entry.test(origin) : entry === origin))
    return build(req, allowed ? origin : undefined, false)
  }

  const originPolicy = policy.origin
  return function decideCors(req) {
    const origin = req.headers.origin
    switch (originPolicy.kind) {
      case 'any':
        return build(req, '*', false)
      case 'reflect':
        return build(req, origin, false)
      case 'match':
        return build(req, origin !== undefined && originPolicy.test(origin) ? origin : undefined, false)
      case 'function':
        return callOriginFunction(originPolicy.decide, origin).then((result) =>
          fromResult(req, origin, result),
        )
    }
  }
}

/** Adds names to `Vary` without repeating one (RFC 9110 §12.5.5); `Vary: *` already covers all. */
export function appendVary(res: CorsResponse, names: readonly string[]): void {
  if (names.length === 0) return
  const existing = varyNames(res.getHeader('vary'))
  const merged = mergeVary(existing, names)
  if (merged !== undefined && merged !== existing.join(', ')) res.setHeader('vary', merged)
}

/** Sets a decision's headers on a response whose headers are not sent yet. */
export function applyCorsDecision(res: CorsResponse, decision: CorsDecision): void {
  if (res.headersSent) return
  for (const [name, value] of decision.headers) res.setHeader(name, value)
  appendVary(res, decision.vary)
}
