import type { RouteStep } from '../../pipeline/route-pipeline.js'
import type { RouteControl } from './route-control.js'

/**
 * The terminal step of a route with `targets`: the forwarder of the target in use now
 * (`state.target`), one forwarder per target built once, each with its own pool, redirect and
 * cookie rewriting and `changeOrigin` for that target. Switching changes the next request's.
 *
 * @example
 * const terminal = createTargetSwitch(entry, new Map([['local', forwardLocal], ['staging', forwardStaging]]))
 */
export function createTargetSwitch(
  entry: RouteControl,
  forwarders: ReadonlyMap<string, RouteStep>,
): RouteStep {
  const { state } = entry
  const fallback = forwarders.get(entry.control.targets[0]?.name ?? '') as RouteStep
  return function targetSwitch(req, res, next, path, exchange) {
    const forward = (state.target === undefined ? undefined : forwarders.get(state.target)) ?? fallback
    forward(req, res, next, path, exchange)
  }
}
