import type { ResolvedControl, ResolvedFaults } from '../config/resolve-control.js'
import type { ResolvedRoute } from '../config/resolved-route.js'

/**
 * One route's live switches: the small object its control step reads on every request and the
 * inspector's HTTP API writes. It starts from the configuration each time the proxy starts, so
 * nothing switched live survives a restart.
 */
export interface RouteControlState {
  /** The name of the target in use (one of `targets`); `undefined` on a route without `targets`. */
  target: string | undefined
  /** The route-wide latency and faults in effect (configured, or set live); `undefined`: none. */
  faults: ResolvedFaults | undefined
  /** Whether the faults (route-wide and per path) apply: the inspector's on/off switch. */
  faultsOn: boolean
  /*
   * Recording and replay switches (`record`, `replay`) belong here too, beside these: the
   * control step reads this object per request, and the API writes it.
   */
}

/** A route with control options, its resolved options and its live state. */
export interface RouteControl {
  readonly route: ResolvedRoute
  readonly control: ResolvedControl
  readonly state: RouteControlState
}

/**
 * Whether `faults` does anything: a latency, a failure rate, or a throttle.
 *
 * @example
 * faultsActive({ latency: [300, 300], failRate: 0, failWith: 503, throttle: undefined }) // true
 */
export function faultsActive(faults: ResolvedFaults | undefined): boolean {
  return (
    faults !== undefined &&
    (faults.latency !== undefined || faults.failRate > 0 || faults.throttle !== undefined)
  )
}

/**
 * Whether any fault or latency is on for `entry` now (what the overlay's badge shows).
 *
 * @example
 * if (anyFaultOn(entry)) badge.show()
 */
export function anyFaultOn(entry: RouteControl): boolean {
  if (!entry.state.faultsOn) return false
  return faultsActive(entry.state.faults) || entry.control.rules.some((rule) => faultsActive(rule.faults))
}

/**
 * The live state of a route with control options, from its configuration: the start-up
 * target, the configured faults, on.
 *
 * @example
 * const entry = createRouteControl(route) // route.control !== undefined
 */
export function createRouteControl(route: ResolvedRoute & { control: ResolvedControl }): RouteControl {
  const { control } = route
  return {
    route,
    control,
    state: { target: control.initial, faults: control.faults, faultsOn: true },
  }
}
