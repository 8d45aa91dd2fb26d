import type { OutgoingHttpHeader } from 'node:http'
import type { CorsOriginFunction, CorsOriginResult } from '../config/cors-options.js'
import type { ResolvedCorsOptions } from '../config/resolve-cors-options.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { mergeVary, varyNames } from '../http/vary.js'

/** A response header to set: lowercase name and value. */
export type CorsHeader = readonly [name: string, value: string]

/**
 * What the CORS policy answers for one request. A policy without an origin function hands out
 * the same decision object to every request that gets the same answer (see
 * {@link createCorsDecider}): never change one.
 */
export interface CorsDecision {
  /** The request is a CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
  readonly preflight: boolean
  /** The origin function turned CORS off for this request: no CORS headers, and a preflight is passed on. */
  readonly disabled: boolean
  /** The CORS headers, to set on the answer (replacing any the backend sent). */
  readonly headers: readonly CorsHeader[]
  /** Request headers the answer depended on, to add to `Vary`. */
  readonly vary: readonly string[]
  /** `vary` joined as a `Vary` value, `undefined` when it names nothing: the value when the answer has no `Vary` yet. */
  readonly varyValue: string | undefined
  /**
   * For a preflight the policy answers itself, its whole head as one flat `[name, value, …]`
   * list, which `writeHead` takes as is: `headers`, then `Vary`, then `Content-Length: 0` when
   * the policy answers with another status than 204 (see `endPreflight`). Empty otherwise.
   */
  readonly preflightHead: readonly string[]
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
 * How many origins a policy remembers its decisions for; cleared when full, so a client that
 * forges a new `Origin` on every request cannot make it grow.
 */
const REMEMBERED_ORIGINS = 64

/** A remembered preflight decision, with the `Access-Control-Request-Headers` it reflects. */
interface RememberedPreflight {
  readonly requested: string | undefined
  readonly decision: CorsDecision
}

/**
 * Builds the per-request decision of a resolved policy. Everything that does not depend on the
 * request is computed here, once: the static headers of preflight answers and of other answers.
 * Unless the origin is a function, the answer depends only on the request's `Origin`, on whether
 * it is a preflight, and (when `allowedHeaders` is unset) on the headers a preflight asks for:
 * each decision is then built once and handed out again, with its header lists and `Vary`
 * value, so the common request allocates nothing here.
 *
 * @example
 * const decide = createCorsDecider(route.cors) // a route's resolved policy, origin 'http://localhost:5173'
 * decide(req).headers // [['access-control-allow-origin', 'http://localhost:5173'], ...]
 */
export function createCorsDecider(policy: ResolvedCorsOptions): CorsDecider {
  const parts = policyParts(policy)
  const originPolicy = policy.origin
  if (originPolicy.kind === 'function') {
    return function decideCors(req) {
      const origin = req.headers.origin
      return callOriginFunction(originPolicy.decide, origin).then((result) =>
        fromResult(parts, req, origin, result),
      )
    }
  }
  return rememberingDecider(parts, originPolicy)
}

/** What a policy's decisions share, computed once per policy. */
interface PolicyParts {
  /** The headers of a preflight answer that do not depend on the request. */
  readonly preflightStatic: readonly CorsHeader[]
  /** The headers of any other answer that do not depend on the request. */
  readonly actualStatic: readonly CorsHeader[]
  /** No `allowedHeaders`: a preflight's answer reflects the headers it asks for. */
  readonly reflectHeaders: boolean
  /** The answer depends on the request's `Origin` (anything but `'*'`). */
  readonly dependsOnOrigin: boolean
  /** What ends the head of a preflight the policy answers itself. */
  readonly preflightTail: readonly string[]
}

/** The static headers and flags of a policy. */
function policyParts(policy: ResolvedCorsOptions): PolicyParts {
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
  return {
    preflightStatic,
    actualStatic,
    reflectHeaders: policy.allowHeaders === undefined,
    dependsOnOrigin: policy.origin.kind !== 'any',
    // RFC 9110 §8.6: no Content-Length on a 204; any other status says its body is empty.
    preflightTail: policy.optionsSuccessStatus === 204 ? [] : ['content-length', '0'],
  }
}

/** A decision, with its `Vary` value and (for a preflight the policy answers) its whole head. */
function decision(
  parts: PolicyParts,
  preflight: boolean,
  disabled: boolean,
  headers: readonly CorsHeader[],
  vary: readonly string[],
): CorsDecision {
  const varyValue = vary.length === 0 ? undefined : vary.join(', ')
  let preflightHead: string[] = []
  if (preflight && !disabled) {
    for (const [name, value] of headers) preflightHead.push(name, value)
    if (varyValue !== undefined) preflightHead.push('vary', varyValue)
    preflightHead = preflightHead.concat(parts.preflightTail)
  }
  return { preflight, disabled, headers, vary, varyValue, preflightHead }
}

/** The decision for a request, `requested` being its `Access-Control-Request-Headers`. */
function build(
  parts: PolicyParts,
  preflight: boolean,
  allowOrigin: string | undefined,
  disabled: boolean,
  requested: unknown,
): CorsDecision {
  const vary: string[] = parts.dependsOnOrigin ? ['Origin'] : []
  if (disabled) return decision(parts, preflight, disabled, [], vary)
  const headers: CorsHeader[] =
    allowOrigin === undefined ? [] : [['access-control-allow-origin', allowOrigin]]
  if (!preflight) return decision(parts, preflight, disabled, headers.concat(parts.actualStatic), vary)
  headers.push(...parts.preflightStatic)
  if (parts.reflectHeaders) {
    // The answer now depends on the requested headers: caches must know (RFC 9110 §12.5.5).
    vary.push('Access-Control-Request-Headers')
    if (typeof requested === 'string' && requested !== '')
      headers.push(['access-control-allow-headers', requested])
  }
  return decision(parts, preflight, disabled, headers, vary)
}

/** Interprets what an origin function answered, with the `cors` package's meanings. */
function fromResult(
  parts: PolicyParts,
  req: ProxyRequest,
  origin: string | undefined,
  result: CorsOriginResult,
): CorsDecision {
  const preflight = isCorsPreflight(req)
  const requested = req.headers['access-control-request-headers']
  if (result === false || (result as unknown) === '' || result === undefined || result === null) {
    return build(parts, preflight, undefined, true, requested)
  }
  if (result === true) return build(parts, preflight, origin, false, requested)
  if (result === '*') return build(parts, preflight, '*', false, requested)
  if (typeof result === 'string') {
    return build(parts, preflight, result === origin ? origin : undefined, false, requested)
  }
  const list = Array.isArray(result) ? result : [result]
  const allowed =
    origin !== undefined &&
    list.some((entry) => (entry instanceof RegExp ? entry.test(origin) : entry === origin))
  return build(parts, preflight, allowed ? origin : undefined, false, requested)
}

/** A policy whose origin rule is not a function: pure, so its decisions can be remembered. */
type PureOriginPolicy = Exclude<ResolvedCorsOptions['origin'], { kind: 'function' }>

/**
 * The decider of a pure policy: each decision built once per `Origin` (and per requested headers
 * when they are reflected) and handed out again, at most REMEMBERED_ORIGINS of each kind.
 */
function rememberingDecider(parts: PolicyParts, originPolicy: PureOriginPolicy): CorsDecider {
  /** The allowed origin for a request's `Origin`: the policy's rule, which is pure. */
  const allowOriginOf = (origin: string | undefined): string | undefined => {
    if (originPolicy.kind === 'any') return '*'
    if (originPolicy.kind === 'reflect') return origin
    return origin !== undefined && originPolicy.test(origin) ? origin : undefined
  }
  const { dependsOnOrigin, reflectHeaders } = parts
  // Keyed by the request's Origin (`undefined` without one): for `'*'` every origin gets the
  // same answer, so one key serves them all.
  const keyOf = (origin: string | undefined): string | undefined => (dependsOnOrigin ? origin : '*')
  const actuals = new Map<string | undefined, CorsDecision>()
  const preflights = new Map<string | undefined, RememberedPreflight>()

  return function decideCors(req) {
    const origin = req.headers.origin
    const key = keyOf(origin)
    if (!isCorsPreflight(req)) {
      const known = actuals.get(key)
      if (known !== undefined) return known
      const built = build(parts, false, allowOriginOf(origin), false, undefined)
      if (actuals.size >= REMEMBERED_ORIGINS) actuals.clear()
      actuals.set(key, built)
      return built
    }
    const requested = req.headers['access-control-request-headers']
    const known = preflights.get(key)
    // Without `allowedHeaders` the answer reflects the requested headers: the one remembered
    // per origin serves only the same request (a page asks for the same ones each time).
    if (known !== undefined && (!reflectHeaders || known.requested === requested)) return known.decision
    const built = build(parts, true, allowOriginOf(origin), false, requested)
    if (preflights.size >= REMEMBERED_ORIGINS && known === undefined) preflights.clear()
    preflights.set(key, { requested, decision: built })
    return built
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
  if (decision.varyValue === undefined) return
  // The common case, nothing in `Vary` yet, needs no merging: the decision's names are distinct.
  if (res.getHeader('vary') === undefined) res.setHeader('vary', decision.varyValue)
  else appendVary(res, decision.vary)
}
