import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import { withCorsDiagnostics } from '../cors/cors-diagnostics.js'
import { createForwarder } from '../forward/create-forwarder.js'
import type { ForwardDeps } from '../forward/forward-context.js'
import { composeSteps, type RouteStep } from '../pipeline/route-pipeline.js'
import { createControlStep } from '../stand-ins/control/control-step.js'
import type { RouteControl } from '../stand-ins/control/route-control.js'
import { createTargetSwitch } from '../stand-ins/control/target-switch.js'
import { createMockRouteStep, type MockRouteStep } from '../stand-ins/mock-backend/mock-route-step.js'
import type { RecordingStore } from '../stand-ins/recordings/recording-store.js'
import { createRouteRecordings } from '../stand-ins/recordings/route-recordings.js'

/** What the backend step needs from the proxy: the upstream pools, the logger, the failure log, the recordings folder. */
export interface BackendDeps extends ForwardDeps {
  /** The recordings folder, when a route has `record` or `replay`. */
  readonly recordings?: RecordingStore | undefined
}

/**
 * A step that answers some of a route's requests itself and hands the others on (`next()`),
 * with what it holds (file watchers, timers) ended by `close`: the shape of the backend's
 * `mocks` slot.
 */
export interface BackendSlot {
  readonly step: RouteStep
  close(): Promise<void> | void
}

/** What a route's backend is made of beside its resolved options. */
export interface BackendParts {
  /** The route's live switches, on a route with control options (faults, `targets`). */
  readonly control?: RouteControl | undefined
  /**
   * Per-path answers beside the target (`mocks`): after the faults (a mocked answer is delayed
   * and failed like a forwarded one), before the recordings and the target (a mocked answer is
   * neither recorded nor replayed).
   */
  readonly mocks?: BackendSlot | undefined
}

/** A route's backend: the step that stands for its target, and what it holds open. */
export interface BackendStep {
  /** The route's last step: it always answers (or passes an error on). */
  readonly step: RouteStep
  /** The mock step of a `mock` route, for WebSocket upgrades; `undefined` on a forwarding route. */
  readonly mock: MockRouteStep | undefined
  /** Ends what the backend holds: the mock backend's streams and sockets, the `mocks` slot's watchers. */
  close(): Promise<void>
}

/**
 * A route's backend, the one step after CORS and JSONP that answers for the target, built once:
 * in this order, each only where the route uses it,
 * 1. the faults (`latency`, `failRate`/`failWith`, `throttle`, `faults`, from the live state),
 * 2. the `mocks` slot (`parts.mocks`),
 * 3. the recordings (`record` taps the forwarded answer; `replay: 'only'` answers from the files),
 * 4. the target: the mock backend of a `mock` route, else the forwarder, or with `targets` the
 *    forwarder of the target in use; `replay: 'fallback'` answers where it fails (a 502/504).
 *
 * A route that uses none of 1 to 3 gets the forwarder itself: nothing between the pipeline and
 * it, no closure per request. Without `cors`, the target's answers to cross-origin pages are
 * checked as the browser will check them (`withCorsDiagnostics`).
 *
 * @example
 * const backend = createBackendStep(route, { pool, logger, failures }, { control })
 * steps.push(backend.step)
 */
export function createBackendStep(
  route: ResolvedRoute,
  deps: BackendDeps,
  parts: BackendParts = {},
): BackendStep {
  const { control, mocks } = parts
  const before: RouteStep[] = []
  // A route with recordings and no control options has live state (its record switch), no control step.
  if (control !== undefined && route.control !== undefined) before.push(createControlStep(control, deps.hops))
  if (mocks !== undefined) before.push(mocks.step)
  const recordings =
    route.kind === 'forward' && deps.recordings !== undefined
      ? createRouteRecordings(route, deps.recordings, deps.logger, control?.state, deps.hops)
      : undefined
  if (recordings !== undefined) before.push(recordings.step)
  const mock = route.kind === 'mock' ? createMockRouteStep(route, deps.logger.warn) : undefined
  const forwardDeps = recordings?.fallback === undefined ? deps : { ...deps, fallback: recordings.fallback }
  const target = mock?.step ?? targetOf(route as ResolvedForwardRoute, forwardDeps, control)
  // Without `cors`, answers to cross-origin pages are checked as the browser will check them.
  const terminal = route.cors === undefined ? withCorsDiagnostics(target, route, deps.logger) : target
  return {
    step: before.length === 0 ? terminal : chainSteps([...before, terminal]),
    mock,
    async close() {
      await Promise.all([mock?.backend.close(), mocks?.close()])
    },
  }
}

/** Steps run in order as one step, connect's `next` semantics kept (see `composeSteps`). */
function chainSteps(steps: readonly RouteStep[]): RouteStep {
  const run = composeSteps(steps)
  return function backendStep(req, res, next, path) {
    run(req, res, path, next)
  }
}

/** The forwarder of a route, or with `targets`, a switch between one forwarder per target. */
function targetOf(route: ResolvedForwardRoute, deps: ForwardDeps, control: RouteControl | undefined) {
  const targets = control?.control.targets ?? []
  if (control === undefined || targets.length === 0) return createForwarder(route, deps)
  const forwarders = new Map(
    targets.map((choice) => [
      choice.name,
      createForwarder({ ...route, target: choice.url, socketPath: choice.socketPath }, deps),
    ]),
  )
  return createTargetSwitch(control, forwarders)
}
