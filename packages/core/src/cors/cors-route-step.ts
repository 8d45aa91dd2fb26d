import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { type HookableResponse, onResponseHead } from '../http/response-head.js'
import { mergeVary, varyNames } from '../http/vary.js'
import type { Logger } from '../log/logger.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { applyCorsDecision, type CorsDecision, createCorsDecider } from './cors-decision.js'
import { endPreflight } from './cors-middleware.js'
import { type CorsPolicyReport, createCorsPolicyReporter } from './cors-policy-report.js'

/**
 * Makes the route's policy the only source of CORS headers on the answer, whoever writes it
 * (the forwarder relaying the backend, the mock, an error answer): just before the head is
 * sent, the backend's `Access-Control-*` headers are dropped (two `Access-Control-Allow-Origin`
 * values are a CORS failure), the decision's are set, `Vary` is merged, and `report` (if any)
 * checks the answer as the browser will.
 */
function guardCorsHeaders(
  res: ProxyResponse,
  decision: CorsDecision,
  report: CorsPolicyReport | undefined,
): void {
  const ours = new Set(decision.headers.map(([name]) => name))
  onResponseHead(res as unknown as HookableResponse, function corsHeadersOnly(head) {
    for (const name of head.getHeaderNames()) {
      if (name.startsWith('access-control-') && !ours.has(name)) head.removeHeader(name)
    }
    for (const [name, value] of decision.headers) head.setHeader(name, value)
    const vary = mergeVary(varyNames(head.getHeader('vary')), [...decision.vary])
    if (vary !== undefined) head.setHeader('vary', vary)
    report?.(head.statusCode)
  })
}

/**
 * The CORS step of a route with `cors` (see pipeline/route-pipeline.ts), built from the
 * route's policy as `resolveOptions` resolved it: per request it answers a preflight itself (204 by default) or hands the request on with the
 * policy's headers guaranteed on whatever answer follows, proxied or not. With
 * `preflightContinue` the preflight is handed on too. When the policy itself makes the browser
 * refuse a cross-origin page's answer, the log says so once (see cors-policy-report.ts).
 * `undefined` when the route has no policy (`cors` unset, `false`, or `{ origin: false }`):
 * its preflights are forwarded untouched.
 *
 * @example
 * const step = createCorsRouteStep(route, logger) // route.cors: a resolved policy
 */
export function createCorsRouteStep(route: ResolvedRoute, logger: Logger): RouteStep | undefined {
  const policy = route.cors
  if (policy === undefined) return undefined
  const decide = createCorsDecider(policy)
  const reporter = createCorsPolicyReporter(route, logger)

  const apply = (
    req: ProxyRequest,
    res: ProxyResponse,
    next: (error?: unknown) => void,
    decision: CorsDecision,
  ): void => {
    const report = reporter(req, decision)
    if (decision.preflight && !decision.disabled && !policy.preflightContinue) {
      applyCorsDecision(res, decision)
      if (!res.headersSent) report?.(policy.optionsSuccessStatus)
      endPreflight(res, policy)
      return
    }
    if (!decision.disabled) {
      applyCorsDecision(res, decision)
      guardCorsHeaders(res, decision, report)
    }
    next()
  }

  return function corsStep(req, res, next) {
    const decision = decide(req)
    if (decision instanceof Promise) decision.then((settled) => apply(req, res, next, settled), next)
    else apply(req, res, next, decision)
  }
}
