import type { IncomingProxyResponse, OutgoingProxyRequest } from '../config/hook-options.js'
import type { LogSink } from '../config/option-value-types.js'
import { mergeHooks, type ResolvedHooks } from '../config/resolve-hooks.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'

/** The request as frameworks extend it: Express and BrowserSync keep the URL as received in `originalUrl`. */
type FrameworkRequest = ProxyRequest & { originalUrl?: string; baseUrl?: string }

/**
 * A route's `logger` with http-proxy-middleware's meaning (v3+, `loggerPlugin`): one `info` line
 * per answered request, `[cors-dev-proxy] GET /api/users -> http://127.0.0.1:3000/users [200]`
 * (method, the path as received, the full upstream URL, the status), and one `error` line per
 * request that could not be forwarded. Built from hooks, so only a route with `logger` pays
 * for it. hpm's prefix is `[HPM]`; ours is the project's tag.
 *
 * @example
 * requestLoggerHooks(console, "routes['/api'].logger")
 */
export function requestLoggerHooks(logger: LogSink, option: string): ResolvedHooks {
  // The upstream URL, known when the request goes out and printed when its answer comes back.
  const sentTo = new WeakMap<object, string>()
  const received = (req: FrameworkRequest) => req.originalUrl ?? `${req.baseUrl ?? ''}${req.url ?? ''}`
  const proxyReq = (outgoing: OutgoingProxyRequest, req: ProxyRequest) => {
    sentTo.set(req, `${outgoing.target.origin}${outgoing.path}`)
  }
  const proxyRes = (answer: IncomingProxyResponse, req: ProxyRequest) => {
    logger.info(
      `[cors-dev-proxy] ${req.method} ${received(req)} -> ${sentTo.get(req) ?? '?'} [${answer.statusCode}]`,
    )
  }
  const error = (failure: Error, req: ProxyRequest) => {
    const code = (failure as { code?: string }).code ?? failure.message
    logger.error(
      `[cors-dev-proxy] Error occurred while proxying request ${req.headers.host ?? ''}${received(req)} to ${sentTo.get(req) ?? '?'} [${code}]`,
    )
  }
  return Object.freeze({
    proxyReq: Object.freeze([{ name: `${option} (proxyReq)`, fn: proxyReq }]),
    proxyRes: Object.freeze([{ name: `${option} (proxyRes)`, fn: proxyRes }]),
    error: Object.freeze([{ name: `${option} (error)`, fn: error }]),
    proxyReqWs: Object.freeze([]),
  })
}

/**
 * The route with its `logger`'s hooks after its own (a route without one is returned as it
 * is): configuration only validates the sink, and the lines are written here, by the logging
 * layer, when the hooks run. Applied once, at start-up, to every resolved route.
 *
 * @example
 * const routes = resolved.routes.map(withRequestLogger)
 */
export function withRequestLogger(route: ResolvedRoute): ResolvedRoute {
  if (route.kind !== 'forward' || route.requestLogger === undefined) return route
  const { sink, option } = route.requestLogger
  return Object.freeze({ ...route, hooks: mergeHooks(route.hooks, requestLoggerHooks(sink, option)) })
}
