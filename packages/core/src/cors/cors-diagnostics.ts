import type { OutgoingHttpHeaders } from 'node:http'
import { diagnoseResponse } from '../browser/diagnose-response.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { isSameOrigin } from '../http/parse-origin.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { Logger } from '../log/logger.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'

/** The response calls the observer wraps. */
interface ObservedResponse {
  writeHead(status: number, ...rest: unknown[]): unknown
  getHeaders(): OutgoingHttpHeaders
}

/**
 * Looks at the head of the answer as it is written and, if the browser will refuse it to the
 * page, logs Chromium's message with the fix, once per route and cause. Never throws: a
 * diagnostic must not break the answer. One-shot, like the guard of the CORS step.
 */
function observeAnswer(
  req: ProxyRequest,
  res: ObservedResponse,
  url: string,
  route: ResolvedRoute,
  logger: Logger,
): void {
  const writeHead = res.writeHead
  res.writeHead = function corsDiagnosticsWriteHead(status: number, ...rest: unknown[]) {
    res.writeHead = writeHead
    try {
      const given = rest[typeof rest[0] === 'string' ? 1 : 0]
      const headers =
        given !== null && typeof given === 'object' && !Array.isArray(given)
          ? { ...res.getHeaders(), ...(given as OutgoingHttpHeaders) }
          : res.getHeaders()
      const diagnosis = diagnoseResponse({
        url,
        method: req.method ?? 'GET',
        requestHeaders: req.headers as OutgoingHttpHeaders,
        response: { status, headers },
      })
      if (diagnosis !== undefined && !diagnosis.allowed) {
        logger.warn(
          `${req.method} ${req.url} from ${req.headers.origin}: the browser will refuse this answer to the page (route '${route.prefix}' has no \`cors\`)\n  ${diagnosis.message}\n  Fix: ${diagnosis.fix}`,
          `cors ${route.prefix} ${diagnosis.cause}`,
        )
      }
    } catch (error) {
      logger.debug(`CORS diagnostics failed for ${req.method} ${req.url}: ${String(error)}`)
    }
    return writeHead.call(res, status, ...rest)
  }
}

/**
 * Wraps the terminal step of a route WITHOUT `cors`: a request whose `Origin` is not the dev
 * server's own origin gets its answer checked as the browser will check it (`diagnoseResponse`),
 * and a refusal is logged in Chromium's words with the fix, once per route and cause. Requests
 * without `Origin`, or from the dev server's own pages, cost one header lookup.
 *
 * @example
 * steps.push(withCorsDiagnostics(forwardStep, route, logger))
 */
export function withCorsDiagnostics(step: RouteStep, route: ResolvedRoute, logger: Logger): RouteStep {
  return function diagnosedStep(req, res, next, path) {
    const origin = req.headers.origin
    if (origin !== undefined) {
      const own = requestedOrigin(req)
      if (own !== undefined && origin !== own && !isSameOrigin(origin, own)) {
        observeAnswer(
          req,
          res as ProxyResponse as unknown as ObservedResponse,
          `${own}${req.url ?? '/'}`,
          route,
          logger,
        )
      }
    }
    step(req, res, next, path)
  }
}
