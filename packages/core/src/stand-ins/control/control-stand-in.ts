/*
 * stand-ins/control/: backend control, first in a route's backend (see ../stand-in.ts). The
 * faults' step (control-step.ts: `latency`, `failRate`/`failWith` answered by fault-answer.ts,
 * `throttle` through `paceBody` and `pacedUpload` in http/; request-faults.ts, which faults a
 * request gets), the same faults and target on a `ws` route's handshake (upgrade-control.ts),
 * the switch between a route's `targets` (target-switch.ts, one forwarder per target), each
 * route's live state (route-control.ts, with the record switch recordings read), the board of
 * every route's switches (control-board.ts) and its `/__cors-dev-proxy/control` endpoint
 * (control-endpoint.ts). At start-up, the developer's own pick among a route's `targets`, read
 * from `cors-dev-proxy.local.json` and `CORS_DEV_PROXY_TARGETS` (target-overrides.ts).
 */
import type { StandIn } from '../stand-in.js'
import { createControlStep } from './control-step.js'
import type { RouteControl } from './route-control.js'
import { createTargetSwitch } from './target-switch.js'
import { createControlUpgrade, createFetchControlUpgrade } from './upgrade-control.js'

/** What the control stand-in needs from the proxy. */
export interface ControlStandInDeps {
  /** The route's live switches, on a route with control options (faults, `targets`) or recordings. */
  readonly control?: RouteControl | undefined
}

/**
 * The live switches of a route, first in its backend: the faults' step (latency, `failRate`,
 * `throttle`, `faults`, read from the live state on each request), and with `targets`, the
 * target: a switch between one forwarder per target. On a `ws` route, the same faults and target
 * on its WebSocket handshakes. A route with recordings and no control options has live state (its
 * record switch) and gets nothing here.
 *
 * @example
 * const slot = controlStandIn(route, { control })
 */
export const controlStandIn: StandIn<ControlStandInDeps> = function controlStandIn(route, deps) {
  const { control } = deps
  if (control === undefined) return undefined
  if (route.control === undefined) return undefined
  const step = createControlStep(control)
  const upgrade = route.ws ? createControlUpgrade(control) : undefined
  const fetchUpgrade = route.ws ? createFetchControlUpgrade(control) : undefined
  const { targets } = control.control
  // `throttle` notes the upload's pace in the request's exchange.
  if (route.kind !== 'forward' || targets.length === 0)
    return { step, upgrade, fetchUpgrade, needsExchange: true }
  return {
    step,
    upgrade,
    fetchUpgrade,
    needsExchange: true,
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
