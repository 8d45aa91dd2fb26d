import type { ResolvedRoute } from '../config/resolved-route.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { interceptJsonAnswer } from './jsonp-intercept.js'
import { admitJsonpRequest } from './jsonp-middleware.js'

/**
 * The JSONP step of a route with `jsonp` (see route-pipeline.ts): a request carrying the
 * callback parameter must be a GET (else 405 with `Allow: GET`) with a valid name (else 400
 * with a JSON error); the JSON answer of the next step (the target's, through the forwarder, or
 * the mock's) is then wrapped as `/**\/ typeof cb === 'function' && cb(<json>);`, decompressed
 * first if the target compressed it. Without the parameter the request is proxied normally.
 * `undefined` when the route has no `jsonp`.
 *
 * @example
 * const step = createJsonpRouteStep(route) // route.jsonp = { param: 'callback' }
 */
export function createJsonpRouteStep(route: ResolvedRoute): RouteStep | undefined {
  if (route.jsonp === undefined) return undefined
  const param = route.jsonp.param
  return function jsonpStep(req, res, next, path) {
    const callback = admitJsonpRequest(req, res, path, param)
    if (callback === null) return
    if (callback !== undefined) interceptJsonAnswer(res, callback)
    next()
  }
}
