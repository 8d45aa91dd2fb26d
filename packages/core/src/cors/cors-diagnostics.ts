import type { OutgoingHttpHeaders } from 'node:http'
import { corsFix } from '../browser/cors-fix.js'
import { type CorsDiagnosis, diagnoseResponse } from '../browser/diagnose-response.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { isSameOrigin } from '../http/parse-origin.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import { type HookableResponse, onResponseHead } from '../http/response-head.js'
import type { Logger } from '../log/logger.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'

/**
 * Looks at the head of the answer just before it is sent and, if the browser will refuse it to
 * the page, logs Chromium's message with the fix, at most once per route and kind of refusal
 * every 10 s. Never throws: a diagnostic must not break the answer.
 */
function observeAnswer(
  req: ProxyRequest,
  res: ProxyResponse,
  url: string,
  route: ResolvedRoute,
  logger: Logger,
): void {
  onResponseHead(res as unknown as HookableResponse, function corsDiagnostics(head) {
    try {
      const diagnosis = diagnoseResponse({
        url,
        method: req.method ?? 'GET',
        requestHeaders: req.headers as OutgoingHttpHeaders,
        response: { status: head.statusCode, headers: head.getHeaders() },
      })
      if (diagnosis !== undefined && !diagnosis.allowed && diagnosis.error !== undefined) {
        // Keyed by route and kind of refusal, not by the values in it (origin, header names),
        // which a client can vary on every request.
        logger.limited(
          'warn',
          `cors ${route.prefix} ${diagnosis.stage}:${diagnosis.error.kind}`,
          () =>
            `${req.method} ${req.url} from ${req.headers.origin}: the browser will refuse this answer to the page (route '${route.prefix}' has no \`cors\`)\n  ${diagnosis.message}\n  Fix: ${routeFix(diagnosis, String(req.headers.origin), head.statusCode, route.prefix)}`,
        )
      }
    } catch (error) {
      logger.debug(`CORS diagnostics failed for ${req.method} ${req.url}: ${String(error)}`)
    }
  })
}

/**
 * Wraps the terminal step of a route WITHOUT `cors`: a request whose `Origin` is not the dev
 * server's own origin gets its answer checked as the browser will check it (`diagnoseResponse`),
 * and a refusal is logged in Chromium's words with the fix, at most once per route and kind of
 * refusal every 10 s (`logger.limited`). Requests
 * without `Origin`, or from the dev server's own pages, cost one header lookup.
 *
 * @example
 * steps.push(withCorsDiagnostics(forwardStep, route, logger))
 */
export function withCorsDiagnostics(step: RouteStep, route: ResolvedRoute, logger: Logger): RouteStep {
  return function diagnosedStep(req, res, next, path, exchange) {
    const origin = req.headers.origin
    if (origin !== undefined) {
      const own = requestedOrigin(req)
      if (own !== undefined && origin !== own && !isSameOrigin(origin, own)) {
        observeAnswer(req, res, `${own}${req.url ?? '/'}`, route, logger)
      }
    }
    step(req, res, next, path, exchange)
  }
}

/** The fix as this route's log says it: the route that relayed the answer is already a proxy. */
function routeFix(diagnosis: CorsDiagnosis, origin: string, status: number, prefix: string): string {
  if (diagnosis.error === undefined) return diagnosis.fix ?? ''
  return corsFix(diagnosis.error, { origin, status, route: prefix })
}
