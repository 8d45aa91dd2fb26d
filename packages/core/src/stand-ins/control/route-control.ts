import type { ResolvedRoute } from '../../config/resolved-route.js'
import type { ResolvedControl, ResolvedFaults } from './options/resolve-control.js'

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
  /**
   * Whether the route records its exchanges now (the inspector's record switch), read by its
   * recordings step per request; `undefined` on a route that cannot record (neither `record: true`
   * nor `replay: 'fallback'` configured: it has no recordings step).
   */
  record: boolean | undefined
}

/** A route with control options or a record switch, its resolved options and its live state. */
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

/** The control options of a route that only has a record switch: no faults, no targets. */
const NO_CONTROL: ResolvedControl = Object.freeze({
  faults: undefined,
  rules: Object.freeze([]),
  targets: Object.freeze([]),
  initial: undefined,
})

/**
 * Whether a route gets a live record switch: it has a recordings step that can record, which
 * only `record: true` or `replay: 'fallback'` gives it (under `replay: 'only'` the target is never
 * contacted, so there is nothing to record, `record: true` or not).
 *
 * @example
 * recordSwitchable(route) // true for { target, record: true }
 */
export function recordSwitchable(route: ResolvedRoute): boolean {
  return (
    route.kind === 'forward' &&
    route.replay !== 'only' &&
    (route.record !== false || route.replay === 'fallback')
  )
}

/**
 * The live state of a route with control options or a record switch, from its configuration:
 * the start-up target, the configured faults, on; recording as configured. `undefined` for a
 * route with neither, which has no live state at all.
 *
 * @example
 * const entry = createRouteControl(route) // route.control !== undefined, or route.record
 */
export function createRouteControl(route: ResolvedRoute): RouteControl | undefined {
  const switchable = recordSwitchable(route)
  if (route.control === undefined && !switchable) return undefined
  const control = route.control ?? NO_CONTROL
  return {
    route,
    control,
    state: {
      target: control.initial,
      faults: control.faults,
      faultsOn: true,
      record: switchable && route.kind === 'forward' ? route.record !== false : undefined,
    },
  }
}
