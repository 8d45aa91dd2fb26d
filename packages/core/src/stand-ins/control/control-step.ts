import { paceBody } from '../../http/body-taps.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import type { Exchange } from '../../pipeline/exchange.js'
import type { NextFunction, RouteStep } from '../../pipeline/route-pipeline.js'
import { answerFault } from './fault-answer.js'
import type { ResolvedFaults } from './options/resolve-control.js'
import { delayOf, failsNow, faultsFor } from './request-faults.js'
import type { RouteControl } from './route-control.js'

/** After the latency: fail, or throttle and hand on. */
function act(
  faults: ResolvedFaults,
  prefix: string,
  req: ProxyRequest,
  res: ProxyResponse,
  next: NextFunction,
  exchange: Exchange | undefined,
) {
  if (failsNow(faults)) {
    if (exchange !== undefined) exchange.hop = `fault injected (${faults.failWith})`
    answerFault(req, res, faults.failWith, prefix)
    return
  }
  if (faults.throttle !== undefined) {
    // Each way: the answer here, the upload where the forwarder sends it (the engine makes an
    // exchange for every request of a route with control options).
    paceBody(res, faults.throttle)
    if (exchange !== undefined) exchange.uploadPace = faults.throttle
  }
  next()
}

/**
 * The control step of a route with control options (see pipeline/route-pipeline.ts): while
 * its faults are on, the request waits its `latency`, then fails (`failRate`, answered by
 * `answerFault`) or goes on with its upload and its answer paced to `throttle`. A client that leaves during the
 * wait is not forwarded. Targets are switched by the terminal step (`createTargetSwitch`).
 *
 * @example
 * const step = createControlStep(createRouteControl(route))
 */
export function createControlStep(entry: RouteControl): RouteStep {
  const { control, state, route } = entry
  const { prefix } = route
  return function controlStep(req, res, next, path, exchange) {
    const faults = state.faultsOn ? faultsFor(control, state.faults, prefix, req, path) : undefined
    if (faults === undefined) {
      next()
      return
    }
    const delay = delayOf(faults.latency)
    if (delay === 0) {
      act(faults, prefix, req, res, next, exchange)
      return
    }
    const timer = setTimeout(() => {
      res.off('close', cancel)
      act(faults, prefix, req, res, next, exchange)
    }, delay)
    const cancel = (): void => clearTimeout(timer)
    res.once('close', cancel)
  }
}
