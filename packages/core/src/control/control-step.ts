import type { ResolvedControl, ResolvedFaults } from '../config/resolve-control.js'
import { pathAfterPrefix } from '../http/path-pattern.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { paceBody } from '../http/response-head.js'
import type { RequestNotes } from '../pipeline/request-notes.js'
import type { NextFunction, RouteStep } from '../pipeline/route-pipeline.js'
import { answerFault } from './fault-answer.js'
import type { RouteControl } from './route-control.js'

/** The faults for one request: the first `faults` entry that matches, else the route's own. */
function faultsFor(
  control: ResolvedControl,
  routeWide: ResolvedFaults | undefined,
  prefix: string,
  req: ProxyRequest,
  path: string,
) {
  if (control.rules.length === 0) return routeWide
  const relative = pathAfterPrefix(prefix, path)
  for (const rule of control.rules) {
    if ((rule.method === undefined || rule.method === req.method) && rule.pattern.test(relative))
      return rule.faults
  }
  return routeWide
}

/** A delay drawn in `[min, max]`. */
function delayOf(latency: ResolvedFaults['latency']): number {
  if (latency === undefined) return 0
  const [min, max] = latency
  return min === max ? min : min + Math.random() * (max - min)
}

/** After the latency: fail, or throttle and hand on. */
function act(
  faults: ResolvedFaults,
  prefix: string,
  req: ProxyRequest,
  res: ProxyResponse,
  next: NextFunction,
  hops: RequestNotes<string> | undefined,
) {
  if (faults.failRate > 0 && Math.random() < faults.failRate) {
    hops?.set(req, `fault injected (${faults.failWith})`)
    answerFault(req, res, faults.failWith, prefix)
    return
  }
  if (faults.throttle !== undefined) paceBody(res, faults.throttle)
  next()
}

/**
 * The control step of a route with control options (see pipeline/route-pipeline.ts): while
 * its faults are on, the request waits its `latency`, then fails (`failRate`, answered by
 * `answerFault`) or goes on with its answer paced to `throttle`. A client that leaves during the
 * wait is not forwarded. Targets are switched by the terminal step (`createTargetSwitch`).
 *
 * @example
 * const step = createControlStep(createRouteControl(route), hops)
 */
export function createControlStep(entry: RouteControl, hops?: RequestNotes<string>): RouteStep {
  const { control, state, route } = entry
  const { prefix } = route
  return function controlStep(req, res, next, path) {
    const faults = state.faultsOn ? faultsFor(control, state.faults, prefix, req, path) : undefined
    if (faults === undefined) {
      next()
      return
    }
    const delay = delayOf(faults.latency)
    if (delay === 0) {
      act(faults, prefix, req, res, next, hops)
      return
    }
    const timer = setTimeout(() => {
      res.off('close', cancel)
      act(faults, prefix, req, res, next, hops)
    }, delay)
    const cancel = (): void => clearTimeout(timer)
    res.once('close', cancel)
  }
}
