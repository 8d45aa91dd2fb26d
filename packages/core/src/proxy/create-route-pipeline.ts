import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import { createControlStep } from '../control/control-step.js'
import type { RouteControl } from '../control/route-control.js'
import { createTargetSwitch } from '../control/target-switch.js'
import { withCorsDiagnostics } from '../cors/cors-diagnostics.js'
import { createCorsRouteStep } from '../cors/cors-route-step.js'
import { createForwarder } from '../forward/create-forwarder.js'
import type { ForwardDeps } from '../forward/forward-context.js'
import { createJsonpRouteStep } from '../jsonp/jsonp-route-step.js'
import { createMockRouteStep, type MockRouteStep } from '../mock/mock-route-step.js'
import { composeSteps, type RoutePipeline, type RouteStep } from '../pipeline/route-pipeline.js'
import type { RecordingStore } from '../recordings/recording-store.js'
import { createRouteRecordings } from '../recordings/route-recordings.js'
import { createRouteMocks, type RouteMocks } from '../route-mocks/route-mocks.js'

/** A route's pipeline, with the mock step of a `mock` route kept for upgrades and `close()`. */
export interface BuiltRoutePipeline {
  readonly run: RoutePipeline
  /**
   * The mock step of a `mock` route, kept so the proxy can hand it WebSocket upgrades and close
   * its backend (open event streams, held `?delay=` answers, echo sockets) in `close()`.
   */
  readonly mock: MockRouteStep | undefined
  /** The route's `mocks` (its step is in `run`), kept for the inspector's "Mock this answer" and `close()`. */
  readonly mocks: RouteMocks | undefined
}

/** What the steps need from the proxy: the upstream pools, the logger, the failure log, the recordings folder, the root. */
export interface RoutePipelineDeps extends ForwardDeps {
  /** The recordings folder, when a route has `record` or `replay`. */
  readonly recordings?: RecordingStore | undefined
  /** Where a relative mocks folder goes: the dev server's root, or the working directory. */
  readonly root?: string | undefined
}

/**
 * Builds a route's pipeline once from its resolved options (nothing is validated here: the
 * configuration was resolved whole, earlier): the CORS step (with `cors`), the control step
 * (with `control`: its live state), the mocks step (with `mocks`), the JSONP step (with `jsonp`), the recordings step (with
 * `record` or `replay`), then the terminal step (with `targets`, the forwarder of the target in
 * use), wrapped with the CORS diagnostics when the route has no `cors`. The mock step goes in as described at
 * the top of pipeline/route-pipeline.ts, and is also returned as `mock`.
 *
 * @example
 * const { run } = createRoutePipeline(route, { pool, logger, failures })
 * run(req, res, '/api/users', next)
 */
export function createRoutePipeline(
  route: ResolvedRoute,
  deps: RoutePipelineDeps,
  control?: RouteControl,
): BuiltRoutePipeline {
  const steps: RouteStep[] = []
  const cors = createCorsRouteStep(route, deps.logger)
  if (cors !== undefined) steps.push(cors)
  if (control !== undefined) steps.push(createControlStep(control, deps.hops))
  const mocks = createRouteMocks(route, { ...deps, root: deps.root ?? process.cwd() })
  if (mocks !== undefined) steps.push(mocks.step)
  const jsonp = createJsonpRouteStep(route, deps.logger)
  if (jsonp !== undefined) steps.push(jsonp)
  const mock = route.kind === 'mock' ? createMockRouteStep(route, deps.logger.warn) : undefined
  const recordings =
    route.kind === 'forward' && deps.recordings !== undefined
      ? createRouteRecordings(route, deps.recordings, deps.logger)
      : undefined
  if (recordings !== undefined) steps.push(recordings.step)
  const forwardDeps = recordings === undefined ? deps : { ...deps, fallback: recordings.fallback }
  const terminal = mock?.step ?? forwarderOf(route as ResolvedForwardRoute, forwardDeps, control)
  // Without `cors`, answers to cross-origin pages are checked as the browser will check them.
  steps.push(cors === undefined ? withCorsDiagnostics(terminal, route, deps.logger) : terminal)
  return { run: composeSteps(steps), mock, mocks }
}

/** The forwarder of a route, or with `targets`, a switch between one forwarder per target. */
function forwarderOf(
  route: ResolvedForwardRoute,
  deps: RoutePipelineDeps,
  control: RouteControl | undefined,
) {
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
