/*
 * jsonp/: JSONP on the server side, the route's second step (here): the request admitted
 * (jsonp-middleware.ts), the next step's JSON answer taken over through http/response-head.ts
 * and wrapped (jsonp-intercept.ts, jsonp-response.ts), whoever wrote it (the target, the mock
 * backend, a mock or a replay). The browser's side is client/jsonp.ts.
 */
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { Logger } from '../log/logger.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { interceptJsonAnswer, MAX_JSONP_SOURCE_BYTES } from './jsonp-intercept.js'
import { admitJsonpRequest } from './jsonp-middleware.js'

/**
 * The JSONP step of a route with `jsonp` (see pipeline/route-pipeline.ts): a request carrying the
 * callback parameter must be a GET (else 405 with `Allow: GET`) with a valid name (else 400
 * with a JSON error); the JSON answer of the next step (the target's, through the forwarder, or
 * the mock's) is then wrapped as `/**\/ typeof cb === 'function' && cb(<json>);`, decompressed
 * first if the target compressed it. An answer larger than 16 MiB, before or after
 * decompression, is answered 502 and logged at most once every 10 s. Without the parameter the
 * request is proxied normally. `undefined` when the route has no `jsonp`.
 *
 * @example
 * const step = createJsonpRouteStep(route, logger) // route.jsonp = { param: 'callback' }
 */
export function createJsonpRouteStep(route: ResolvedRoute, logger?: Logger): RouteStep | undefined {
  if (route.jsonp === undefined) return undefined
  const param = route.jsonp.param
  return function jsonpStep(req, res, next, path) {
    const callback = admitJsonpRequest(req, res, path, param)
    if (callback === null) return
    if (callback !== undefined) {
      interceptJsonAnswer(res, callback, () =>
        logger?.limited(
          'warn',
          `jsonp ${route.prefix} too large`,
          () =>
            `502 ${req.method} ${req.url}: the answer is larger than ${MAX_JSONP_SOURCE_BYTES / 2 ** 20} MiB (after decompression), too large to wrap as JSONP on route '${route.prefix}'`,
        ),
      )
    }
    next()
  }
}
