import { routeOption } from '../config/option-path.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { splitPathAndQuery } from '../http/normalize-path.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import type { Logger } from '../log/logger.js'

/**
 * What the gate decided: the route takes the request, passes it on, it was answered, or (an
 * upgrade, which has no response to answer on) it is to be refused 404.
 */
export type GateVerdict = 'take' | 'pass' | 'done' | 'refuse'

/** Decides, before a route's steps, whether the route takes a request it matched. */
export type RouteGate = (
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  path: string,
) => GateVerdict | Promise<GateVerdict>

/**
 * The gate of a route with `pathFilter` or `bypass`, or `undefined` when it has neither (and
 * takes every request of its prefix). In order:
 * - `pathFilter(path, req)` (path without the query): `false` passes the request on to the dev
 *   server, as http-proxy-middleware's filter does;
 * - Vite's `bypass(req, res, options)`: a string serves that path from the dev server instead
 *   (`req.url` set to it, the request passed on), `false` answers 404, nothing takes it; a
 *   bypass that answered the response itself ends it there, whatever it returned. For a WebSocket upgrade `res` is
 *   `undefined` and `false` gives `'refuse'`, for the caller to answer 404 on the socket.
 * A filter or bypass that throws answers 502 naming it (logged at most once every 10 s), never
 * crashing the server.
 *
 * @example
 * const gate = createRouteGate(route, logger)
 * if (gate && (await gate(req, res, path)) !== 'take') return
 */
export function createRouteGate(route: ResolvedRoute, logger: Logger): RouteGate | undefined {
  const { pathFilter, bypass, source } = route
  if (pathFilter === undefined && bypass === undefined) return undefined

  const fail = (
    req: ProxyRequest,
    res: ProxyResponse | undefined,
    option: string,
    error: unknown,
  ): GateVerdict => {
    const message = `${option} threw: ${error instanceof Error ? error.message : String(error)}`
    // Keyed by the option alone: the message may carry request data (a path, a header).
    logger.limited('error', `gate ${option}`, () => `502 ${req.method} ${req.url}: ${message}`)
    if (res !== undefined) sendText(res, 502, 'text/plain; charset=utf-8', `${message}\n`)
    return 'done'
  }

  const settle = (req: ProxyRequest, res: ProxyResponse | undefined, answer: unknown): GateVerdict => {
    // A bypass that answered the response itself has the last word, whatever it returned: a
    // path would send the request on to the dev server, which would write after the end.
    if (res !== undefined && (res.headersSent || res.writableEnded)) return 'done'
    if (typeof answer === 'string') {
      req.url = answer
      return 'pass'
    }
    if (answer === false) {
      if (res === undefined) return 'refuse'
      sendText(res, 404, 'text/plain; charset=utf-8', 'Not Found\n')
      return 'done'
    }
    return 'take'
  }

  return function routeGate(req, res, path) {
    if (pathFilter !== undefined) {
      try {
        if (!pathFilter(splitPathAndQuery(path)[0], req)) return 'pass'
      } catch (error) {
        return fail(req, res, routeOption(route.prefix, 'pathFilter'), error)
      }
    }
    if (bypass === undefined) return 'take'
    const option = routeOption(route.prefix, 'bypass')
    let answer: unknown
    try {
      answer = bypass(req, res, source)
    } catch (error) {
      return fail(req, res, option, error)
    }
    if (answer instanceof Promise) {
      return answer.then(
        (settled) => settle(req, res, settled),
        (error: unknown) => fail(req, res, option, error),
      )
    }
    return settle(req, res, answer)
  }
}
