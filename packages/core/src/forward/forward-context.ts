import { routeOption } from '../config/option-path.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { joinTargetPath } from '../http/rewrite-path.js'
import type { Logger } from '../log/logger.js'
import type { Exchange } from '../pipeline/exchange.js'
import type { FailureLog } from './failure-log.js'
import { createForwardHints, type ForwardHints } from './forward-hints.js'
import { createLocationRewrite, type LocationRewrite, type LocationRewriter } from './location-rewrite.js'
import { targetLabel } from './proxy-error.js'
import type { UpstreamPool } from './upstream-pool.js'

/** What the forwarder needs besides the route. */
export interface ForwardDeps {
  pool: UpstreamPool
  logger: Logger
  /** Upstream failures per target: the first at once, then summaries, then the recovery. */
  failures: FailureLog
  /**
   * Asked when the target could not be reached or timed out, before the 502/504 (a route with
   * `record` or `replay: 'fallback'`, see stand-ins/recordings/), with the failure's short cause
   * (`connection refused`): `true` when it answered (a replay).
   */
  fallback?: UpstreamFallback
}

/**
 * Where a request that failed before any answer was going: its matched path, and its exchange
 * (pipeline/exchange.ts), where a fallback that answers notes it. A `Relay` is one; the
 * forwarder makes one only on the failure's way.
 */
export interface FailedAt {
  readonly path: string
  readonly exchange: Exchange | undefined
}

/** See {@link ForwardDeps.fallback}. */
export type UpstreamFallback = (
  req: ProxyRequest,
  res: ProxyResponse,
  cause: string,
  at: FailedAt,
) => Promise<boolean>

/**
 * What every step of one route's forwarding reads, built once per route by `createForwarder`:
 * the route, the proxy's pools and logs, and what is worked out from the route ahead of any
 * request (its label, its option names, its redirect rewrite).
 */
export interface ForwardContext {
  readonly route: ResolvedForwardRoute
  readonly pool: UpstreamPool
  readonly logger: Logger
  readonly failures: FailureLog
  /** See {@link ForwardDeps.fallback}; `undefined` on routes without `record` or `replay`. */
  readonly fallback: UpstreamFallback | undefined
  /** What a developer would otherwise puzzle over, explained once per route. */
  readonly hints: ForwardHints
  /** The route's target as the logs name it (`targetLabel`). */
  readonly label: string
  /** `routes['/api'].router`, as failures name it. */
  readonly routerName: string
  /** `routes['/api'].transformResponse`, as failures name it. */
  readonly transformName: string
  /** Points redirects at `target` back at the dev server; `undefined` when the route keeps them. */
  readonly locationFor: (target: URL) => LocationRewriter | undefined
}

/**
 * `HEAD <path>` on the route's target, with the prefix kept (for the 404 hint): its status, or
 * `undefined` when the target could not be asked within 2 s.
 */
function probeTarget(
  pool: UpstreamPool,
  route: ResolvedForwardRoute,
  path: string,
): Promise<number | undefined> {
  return pool
    .poolFor(route)
    .request({
      method: 'HEAD',
      path: joinTargetPath(route.target, path),
      headers: { host: route.target.host },
      signal: AbortSignal.timeout(2000),
    })
    .then(
      (answer) => {
        answer.body.resume()
        return answer.statusCode
      },
      () => undefined,
    )
}

const rewriterOf = (location: LocationRewrite): LocationRewriter | undefined =>
  location.kind === 'rewrite' ? location.rewrite : undefined

/**
 * Builds a route's {@link ForwardContext} once.
 *
 * @example
 * const context = createForwardContext(route, { pool, logger, failures })
 */
export function createForwardContext(route: ResolvedForwardRoute, deps: ForwardDeps): ForwardContext {
  const { pool, logger } = deps
  const location = createLocationRewrite(route)
  const own = rewriterOf(location)
  // Routed targets get their own redirect rewrite, built on first use (a few targets at most).
  const routed = new Map<string, LocationRewriter | undefined>()
  const locationFor = (target: URL): LocationRewriter | undefined => {
    if (target === route.target) return own
    if (!routed.has(target.href)) {
      if (routed.size >= 64) routed.clear()
      routed.set(target.href, rewriterOf(createLocationRewrite({ ...route, target })))
    }
    return routed.get(target.href)
  }
  return Object.freeze({
    route,
    pool,
    logger,
    failures: deps.failures,
    fallback: deps.fallback,
    hints: createForwardHints(route, location, logger, (path) => probeTarget(pool, route, path)),
    label: targetLabel(route.target),
    routerName: routeOption(route.prefix, 'router'),
    transformName: routeOption(route.prefix, 'transformResponse'),
    locationFor,
  })
}
