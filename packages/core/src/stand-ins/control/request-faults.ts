import { pathAfterPrefix } from '../../http/path-pattern.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import type { ResolvedControl, ResolvedFaults } from './options/resolve-control.js'

/**
 * The faults for one request (or WebSocket handshake) at the matched `path`: the first
 * `faults` entry that matches its method and path, else the route's own (`routeWide`).
 *
 * @example
 * faultsFor(route.control, state.faults, '/api', req, '/api/users/7') // the 'GET /users/:id' entry's
 */
export function faultsFor(
  control: ResolvedControl,
  routeWide: ResolvedFaults | undefined,
  prefix: string,
  req: ProxyRequest,
  path: string,
): ResolvedFaults | undefined {
  if (control.rules.length === 0) return routeWide
  const relative = pathAfterPrefix(prefix, path)
  for (const rule of control.rules) {
    if ((rule.method === undefined || rule.method === req.method) && rule.pattern.test(relative))
      return rule.faults
  }
  return routeWide
}

/**
 * A delay drawn in `[min, max]` milliseconds; 0 without a latency.
 *
 * @example
 * delayOf([100, 400]) // 273.9…
 */
export function delayOf(latency: ResolvedFaults['latency']): number {
  if (latency === undefined) return 0
  const [min, max] = latency
  return min === max ? min : min + Math.random() * (max - min)
}

/**
 * Whether a request with these faults fails now (`failRate`, drawn per request).
 *
 * @example
 * if (failsNow(faults)) answerFault(req, res, faults.failWith, prefix)
 */
export function failsNow(faults: ResolvedFaults): boolean {
  return faults.failRate > 0 && Math.random() < faults.failRate
}
