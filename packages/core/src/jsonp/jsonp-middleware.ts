import type { ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import { isValidCallbackName } from '../config/callback-name.js'
import { JSONP_DEFAULTS } from '../config/defaults.js'
import { checkJsonp } from '../config/validate-values.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { interceptJsonAnswer } from './jsonp-intercept.js'
import { jsonpCallbackOf } from './jsonp-request.js'
import { type JsonpResponse, sendJsonpCallbackError, sendJsonpMethodNotAllowed } from './jsonp-response.js'

/**
 * Options of {@link createJsonpMiddleware}.
 *
 * @example
 * createJsonpMiddleware({ param: 'cb' })
 */
export interface JsonpMiddlewareOptions {
  /**
   * Name of the query parameter carrying the callback.
   * @default 'callback'
   */
  param?: string
}

/** A connect-style JSONP middleware, usable with `http`, `http2` (compat API), connect and Express. */
export type JsonpMiddleware = (
  req: ProxyRequest,
  res: ServerResponse | Http2ServerResponse,
  next: (err?: unknown) => void,
) => void

/**
 * Checks a JSONP request before any handler runs: `undefined` when the request carries no
 * callback parameter (nothing to do), `null` when it was refused and answered (405 for a
 * method other than GET, 400 for an invalid name), else the callback name to wrap the answer in.
 */
export function admitJsonpRequest(
  req: ProxyRequest,
  res: JsonpResponse,
  target: string,
  param: string,
): string | null | undefined {
  const callback = jsonpCallbackOf(target, param)
  if (callback === undefined) return undefined
  if (req.method !== 'GET') {
    sendJsonpMethodNotAllowed(res, param)
    return null
  }
  if (!isValidCallbackName(callback)) {
    sendJsonpCallbackError(res, param)
    return null
  }
  return callback
}

/**
 * Creates a middleware that turns the JSON answers of the handlers after it into JSONP when
 * the request carries the callback parameter: GET only (other methods → 405 with
 * `Allow: GET`), the name checked against `isValidCallbackName` (else 400 with a JSON error
 * that never reflects the name), body `/**\/ typeof cb === 'function' && cb(<json>);` with
 * `Content-Type: application/javascript` and `X-Content-Type-Options: nosniff`. A request
 * without the parameter, and an answer that is not JSON, pass through unchanged.
 * Throws `CorsDevProxyError` for an invalid `param`.
 *
 * @example
 * app.use(createJsonpMiddleware({ param: 'callback' }))
 * app.get('/users', (req, res) => res.json([{ id: 1 }])) // GET /users?callback=cb → cb([{"id":1}])
 */
export function createJsonpMiddleware(options: JsonpMiddlewareOptions = {}): JsonpMiddleware {
  // The same rule, checks and messages as `jsonp` on a route.
  const { param } = checkJsonp(options, 'jsonp') || JSONP_DEFAULTS
  return function jsonpMiddleware(req, res, next) {
    const callback = admitJsonpRequest(req, res, req.url ?? '/', param)
    if (callback === null) return
    if (callback !== undefined) interceptJsonAnswer(res, callback)
    next()
  }
}
