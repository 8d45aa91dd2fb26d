import type { OutgoingHttpHeader } from 'node:http'
import type { CorsOriginResult } from '../../src/config/cors-options.js'
import type { ResolvedCorsOptions } from '../../src/config/resolve-cors-options.js'
import { mergeVary, varyNames } from '../../src/http/vary.js'

/**
 * The CORS answer written the plain way, one request at a time, with nothing precomputed or
 * remembered: what `createCorsDecider` and `answerPreflight` must keep producing, however they
 * get there. It is the decision code as it was before answers were precomputed per policy.
 */

/** A request as the reference reads it. */
export interface ReferenceRequest {
  method: string
  headers: Record<string, string | undefined>
}

/** The reference decision: the headers to set and the names to add to `Vary`. */
export interface ReferenceDecision {
  preflight: boolean
  disabled: boolean
  headers: Array<[string, string]>
  vary: string[]
}

function isPreflight(req: ReferenceRequest): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  )
}

/** The decision for `req`; `result` is what the origin function answered, for a function policy. */
export function referenceDecision(
  policy: ResolvedCorsOptions,
  req: ReferenceRequest,
  result?: CorsOriginResult,
): ReferenceDecision {
  const common: Array<[string, string]> = []
  if (policy.credentials) common.push(['access-control-allow-credentials', 'true'])
  const preflightStatic = [...common]
  if (policy.allowMethods !== '') preflightStatic.push(['access-control-allow-methods', policy.allowMethods])
  if (policy.allowHeaders !== undefined && policy.allowHeaders !== '') {
    preflightStatic.push(['access-control-allow-headers', policy.allowHeaders])
  }
  if (policy.maxAge !== undefined) preflightStatic.push(['access-control-max-age', policy.maxAge])
  const actualStatic = [...common]
  if (policy.exposeHeaders !== undefined && policy.exposeHeaders !== '') {
    preflightStatic.push(['access-control-expose-headers', policy.exposeHeaders])
    actualStatic.push(['access-control-expose-headers', policy.exposeHeaders])
  }
  const origin = req.headers.origin
  const build = (allowOrigin: string | undefined, disabled: boolean): ReferenceDecision => {
    const preflight = isPreflight(req)
    const vary = policy.origin.kind !== 'any' ? ['Origin'] : []
    if (disabled) return { preflight, disabled, headers: [], vary }
    const headers: Array<[string, string]> =
      allowOrigin === undefined ? [] : [['access-control-allow-origin', allowOrigin]]
    if (!preflight) return { preflight, disabled, headers: headers.concat(actualStatic), vary }
    headers.push(...preflightStatic)
    if (policy.allowHeaders === undefined) {
      vary.push('Access-Control-Request-Headers')
      const requested = req.headers['access-control-request-headers']
      if (typeof requested === 'string' && requested !== '')
        headers.push(['access-control-allow-headers', requested])
    }
    return { preflight, disabled, headers, vary }
  }
  switch (policy.origin.kind) {
    case 'any':
      return build('*', false)
    case 'reflect':
      return build(origin, false)
    case 'match':
      return build(origin !== undefined && policy.origin.test(origin) ? origin : undefined, false)
    case 'function': {
      if (result === false || result === undefined || result === null || (result as unknown) === '') {
        return build(undefined, true)
      }
      if (result === true) return build(origin, false)
      if (result === '*') return build('*', false)
      if (typeof result === 'string') return build(result === origin ? origin : undefined, false)
      const list = Array.isArray(result) ? result : [result]
      const allowed =
        origin !== undefined &&
        list.some((entry) => (entry instanceof RegExp ? entry.test(origin) : entry === origin))
      return build(allowed ? origin : undefined, false)
    }
  }
}

/** The response methods the reference answer uses. */
export interface ReferenceResponse {
  statusCode: number
  readonly headersSent: boolean
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  getHeader(name: string): OutgoingHttpHeader | undefined
  end(): unknown
}

/** Sets the decision's headers header by header, merging `Vary`, as the general path does. */
export function referenceApply(res: ReferenceResponse, decision: ReferenceDecision): void {
  if (res.headersSent) return
  for (const [name, value] of decision.headers) res.setHeader(name, value)
  if (decision.vary.length === 0) return
  const existing = varyNames(res.getHeader('vary'))
  const merged = mergeVary(existing, decision.vary)
  if (merged !== undefined && merged !== existing.join(', ')) res.setHeader('vary', merged)
}

/** Answers a preflight header by header: the decision's headers, then the status and end. */
export function referencePreflight(
  res: ReferenceResponse,
  decision: ReferenceDecision,
  policy: ResolvedCorsOptions,
): void {
  referenceApply(res, decision)
  if (res.headersSent) return
  res.statusCode = policy.optionsSuccessStatus
  if (policy.optionsSuccessStatus !== 204) res.setHeader('content-length', '0')
  res.end()
}
