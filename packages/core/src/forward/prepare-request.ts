import type { RequestOptions } from '../config/hook-options.js'
import { routeOption } from '../config/option-path.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { joinTargetPath, type ProblemReport } from '../http/rewrite-path.js'
import { HookFailure, type OutgoingParts } from './hook-runner.js'
import type { UpstreamHeaders } from './request-headers.js'
import { copyRouteOptions, headersForRequest } from './request-options.js'

// The outgoing request's preparation, written once for every way a request leaves the proxy:
// an HTTP request (create-forwarder.ts), a WebSocket handshake on Node (websocket-upgrade.ts)
// and one through the Fetch handler (proxy/fetch-websocket.ts). In http-proxy-middleware's
// order: 1. the `router` picks the target; 2. `pathRewrite` gives the upstream path; 3. the
// route's `headers`, with what the router set on its `options.headers`; 4. the routed route
// (target and headers of this request) gives the outgoing headers. Each caller adds only what
// its kind of request needs: a body's framing, a handshake's Upgrade pair, its own hooks.

/**
 * The outgoing headers from the routed route: an HTTP request's (`buildUpstreamHeaders`), a
 * Node handshake's (`handshakeHeaders`) or the Fetch bridge's (`bridgeHeaders`).
 */
export type HeadersFor = (req: ProxyRequest, routed: ResolvedForwardRoute) => UpstreamHeaders

/** The target of one request, and the request's copy of the options a router got (see `copyRouteOptions`). */
export interface Routing {
  readonly target: URL
  /** `undefined` on a route without a router: the route's own `headers` apply. */
  readonly options: RequestOptions | undefined
}

/** The prepared outgoing request: its target, and the path and headers before the request's hooks. */
export interface PreparedRequest extends OutgoingParts {
  readonly target: URL
}

/** What preparing a route's requests needs, built once per route (see {@link createRequestPreparer}). */
export interface RequestPreparer {
  readonly route: ResolvedForwardRoute
  /** Where a `pathRewrite` function's answer that is not a path is reported (the logger's `warn`). */
  readonly warn: ProblemReport
  readonly headersFor: HeadersFor
  /** The routing of a route without a router: its own target, allocated once. */
  readonly own: Routing
  /** `routes['/api'].router`, as failures name it. */
  readonly routerName: string
}

/**
 * Builds the preparation of a route's outgoing requests once.
 *
 * @example
 * const preparer = createRequestPreparer(route, logger.warn, buildUpstreamHeaders)
 * const prepared = prepareRequest(preparer, req, res, '/api/users') // { target, path: '/users', headers }
 */
export function createRequestPreparer(
  route: ResolvedForwardRoute,
  warn: ProblemReport,
  headersFor: HeadersFor,
): RequestPreparer {
  return Object.freeze({
    route,
    warn,
    headersFor,
    own: Object.freeze({ target: route.target, options: undefined }),
    routerName: routeOption(route.prefix, 'router'),
  })
}

/**
 * A router that threw or rejected, named as a hook is (`routes['/api'].router threw: …`); a
 * {@link RouterAnswerError} (an answer that is no target) names itself.
 */
function routerFailure(preparer: RequestPreparer, error: unknown): Error {
  return error instanceof RouterAnswerError ? error : new HookFailure(preparer.routerName, error)
}

/**
 * Step 1, the `router`: the request's target, with the request's own copy of the route's
 * options (http-proxy-middleware 4 hands its router a copy per request). Without a router, the
 * route's own target at once; a synchronous router answers without a promise. A router that
 * fails throws (or rejects with) a `HookFailure` or `RouterAnswerError` (answered 502).
 *
 * @example
 * const routing = routeRequest(preparer, req, res)
 */
export function routeRequest(
  preparer: RequestPreparer,
  req: ProxyRequest,
  res: ProxyResponse | undefined,
): Routing | Promise<Routing> {
  const { route } = preparer
  const router = route.router
  if (router === undefined) return preparer.own
  const options = copyRouteOptions(route.source)
  let chosen: URL | undefined | Promise<URL | undefined>
  try {
    chosen = router(req, res, options)
  } catch (error) {
    throw routerFailure(preparer, error)
  }
  if (!(chosen instanceof Promise)) return { target: chosen ?? route.target, options }
  return chosen.then(
    (settled) => ({ target: settled ?? route.target, options }),
    (error: unknown) => {
      throw routerFailure(preparer, error)
    },
  )
}

/** Steps 3 and 4: the request's headers, the routed route, and the outgoing parts. */
function outgoingOf(
  preparer: RequestPreparer,
  req: ProxyRequest,
  upstreamPath: string,
  routing: Routing,
): PreparedRequest {
  const { route } = preparer
  const { target, options } = routing
  // What the router (or the pathRewrite after it) set on the request's `options.headers`.
  const headers =
    options === undefined
      ? route.headers
      : headersForRequest(route.headers, route.source, options, preparer.routerName)
  const routed = target === route.target && headers === route.headers ? route : { ...route, target, headers }
  return { target, path: joinTargetPath(target, upstreamPath), headers: preparer.headersFor(req, routed) }
}

/**
 * Steps 2 to 4 once the target is known: `pathRewrite` (with the router's copy of the options
 * as a function's fourth argument), then the headers. Synchronous with a synchronous
 * `pathRewrite`; a failing one throws (or rejects with) a `PathRewriteFailure`, and a header
 * the router set that cannot be sent a `RouterAnswerError`.
 *
 * @example
 * const prepared = rewriteRequest(preparer, req, res, '/api/users', await routeRequest(preparer, req, res))
 */
export function rewriteRequest(
  preparer: RequestPreparer,
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  path: string,
  routing: Routing,
): PreparedRequest | Promise<PreparedRequest> {
  const rewritten = preparer.route.rewritePath(path, req, preparer.warn, res, routing.options)
  if (typeof rewritten === 'string') return outgoingOf(preparer, req, rewritten, routing)
  return rewritten.then((settled) => outgoingOf(preparer, req, settled, routing))
}

/**
 * The whole preparation: {@link routeRequest}, then {@link rewriteRequest}. On the common route
 * (no router, a synchronous `pathRewrite`) it returns at once, without a promise.
 *
 * @example
 * const prepared = prepareRequest(preparer, req, res, '/api/users')
 */
export function prepareRequest(
  preparer: RequestPreparer,
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  path: string,
): PreparedRequest | Promise<PreparedRequest> {
  const routing = routeRequest(preparer, req, res)
  if (!(routing instanceof Promise)) return rewriteRequest(preparer, req, res, path, routing)
  return routing.then((settled) => rewriteRequest(preparer, req, res, path, settled))
}
