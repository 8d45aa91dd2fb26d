import type { StandIn } from '../stand-in.js'
import { createControlStep } from './control-step.js'
import type { RouteControl } from './route-control.js'
import { createTargetSwitch } from './target-switch.js'

/** What the control stand-in needs from the proxy. */
export interface ControlStandInDeps {
  /** The route's live switches, on a route with control options (faults, `targets`) or recordings. */
  readonly control?: RouteControl | undefined
}

/**
 * The live switches of a route, first in its backend: the faults' step (latency, `failRate`,
 * `throttle`, `faults`, read from the live state on each request), and with `targets`, the
 * target: a switch between one forwarder per target. A route with recordings and no control
 * options has live state (its record switch) and gets nothing here.
 *
 * @example
 * const slot = controlStandIn(route, { control })
 */
export const controlStandIn: StandIn<ControlStandInDeps> = function controlStandIn(route, deps) {
  const { control } = deps
  if (control === undefined) return undefined
  const step = route.control === undefined ? undefined : createControlStep(control)
  const { targets } = control.control
  if (route.kind !== 'forward' || targets.length === 0) return step === undefined ? undefined : { step }
  return {
    step,
    target: (forwarderOf) =>
      createTargetSwitch(
        control,
        new Map(
          targets.map((choice) => [
            choice.name,
            forwarderOf({ ...route, target: choice.url, socketPath: choice.socketPath }),
          ]),
        ),
      ),
  }
}
