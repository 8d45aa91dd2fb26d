/*
 * cors/: our CORS policy, what a route with `cors` answers. The decisions are built once per
 * policy and origin (cors-decision.ts) and applied by the route's first step (here), which
 * answers a preflight itself (preflight-answer.ts) and sets its headers over the backend's just
 * before the head goes out, through http/response-head.ts. Without `cors`, the target's answers
 * to cross-origin pages are checked as the browser will check them and explained in Chromium's
 * words (cors-diagnostics.ts). Also the standalone middleware (cors-middleware.ts) and the
 * origin check of a `ws` route's upgrade (upgrade-origin.ts).
 */
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { type HookableResponse, onResponseHead, type ResponseHead } from '../http/response-head.js'
import { mergeVary, varyNames } from '../http/vary.js'
import type { Logger } from '../log/logger.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { applyCorsDecision, type CorsDecision, createCorsDecider } from './cors-decision.js'
import { type CorsPolicyReporter, createCorsPolicyReporter } from './cors-policy-report.js'
import { answerPreflight, type PreflightResponse } from './preflight-answer.js'

/** Whether the decision sets this header (a handful at most: a scan beats building a Set per request). */
function isOwnHeader(decision: CorsDecision, name: string): boolean {
  for (const [own] of decision.headers) if (own === name) return true
  return false
}

/**
 * Merges the decision's names into the head's `Vary` (see `mergeVary`). When the head has none,
 * or the very value the decision set before the handler ran, there is nothing to merge.
 */
function mergeDecisionVary(head: ResponseHead, decision: CorsDecision): void {
  const existing = head.getHeader('vary')
  if (existing === undefined) {
    if (decision.varyValue !== undefined) head.setHeader('vary', decision.varyValue)
    return
  }
  if (existing === decision.varyValue) return
  const vary = mergeVary(varyNames(existing), decision.vary)
  if (vary !== undefined) head.setHeader('vary', vary)
}

/**
 * Makes the route's policy the only source of CORS headers on the answer, whoever writes it
 * (the forwarder relaying the backend, the mock, an error answer): just before the head is
 * sent, the backend's `Access-Control-*` headers are dropped (two `Access-Control-Allow-Origin`
 * values are a CORS failure), the decision's are set, `Vary` is merged, and `report` checks the
 * answer as the browser will.
 */
function guardCorsHeaders(
  req: ProxyRequest,
  res: ProxyResponse,
  decision: CorsDecision,
  report: CorsPolicyReporter,
): void {
  onResponseHead(res as unknown as HookableResponse, function corsHeadersOnly(head) {
    for (const name of head.getHeaderNames()) {
      if (name.startsWith('access-control-') && !isOwnHeader(decision, name)) head.removeHeader(name)
    }
    for (const [name, value] of decision.headers) head.setHeader(name, value)
    mergeDecisionVary(head, decision)
    report(req, decision, head.statusCode)
  })
}

/**
 * The CORS step of a route with `cors` (see pipeline/route-pipeline.ts), built from the
 * route's policy as `resolveOptions` resolved it: per request it answers a preflight itself (204
 * by default, see `answerPreflight`) or hands the request on with the policy's headers
 * guaranteed on whatever answer follows, proxied or not. With `preflightContinue` the preflight
 * is handed on too. When the policy itself makes the browser refuse a cross-origin page's
 * answer, the log says so once (see cors-policy-report.ts).
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
  const report = createCorsPolicyReporter(route, logger)

  const apply = (
    req: ProxyRequest,
    res: ProxyResponse,
    next: (error?: unknown) => void,
    decision: CorsDecision,
  ): void => {
    if (decision.preflight && !decision.disabled && !policy.preflightContinue) {
      if (!res.headersSent) report(req, decision, policy.optionsSuccessStatus)
      answerPreflight(res as PreflightResponse, decision, policy)
      return
    }
    if (!decision.disabled) {
      applyCorsDecision(res, decision)
      guardCorsHeaders(req, res, decision, report)
    }
    next()
  }

  return function corsStep(req, res, next) {
    const decision = decide(req)
    if (decision instanceof Promise) {
      decision.then(
        (settled) => apply(req, res, next, settled),
        (error: unknown) => {
          // Passed on as it is (as `cors` does), and remembered so the log can name its source.
          if (error !== null && typeof error === 'object') originFunctionErrors.add(error)
          next(error)
        },
      )
    } else apply(req, res, next, decision)
  }
}

/** Errors a `cors.origin` function threw or rejected with (see {@link isOriginFunctionError}). */
const originFunctionErrors = new WeakSet<object>()

/**
 * Whether a route step's error came from the route's `cors.origin` function, so that the log
 * line can say so rather than show the bare message.
 *
 * @example
 * isOriginFunctionError(error) // true for what `origin(origin, callback)` passed to its callback
 */
export function isOriginFunctionError(error: unknown): boolean {
  return error !== null && typeof error === 'object' && originFunctionErrors.has(error)
}
