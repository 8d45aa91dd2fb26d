import type { ResolvedRoute } from '../config/resolved-route.js'
import { createCorsRouteStep } from '../cors/cors-route-step.js'
import { createJsonpRouteStep } from '../jsonp/jsonp-route-step.js'
import { composeSteps, type RoutePipeline, type RouteStep } from '../pipeline/route-pipeline.js'
import type { RouteControl } from '../stand-ins/control/route-control.js'
import { createRouteMocks, type RouteMocks } from '../stand-ins/route-mocks/route-mocks.js'
import { type BackendDeps, type BackendStep, createBackendStep } from './create-backend-step.js'

/** A route's pipeline, with what the proxy needs beside it for upgrades and `close()`. */
export interface BuiltRoutePipeline {
  readonly run: RoutePipeline
  /** The route's WebSocket handshakes through its stand-ins (see `BackendStep.upgrade`). */
  readonly upgrade: BackendStep['upgrade']
  /** The route's handshakes in the Fetch handler through its stand-ins (see `BackendStep.fetchUpgrade`). */
  readonly fetchUpgrade: BackendStep['fetchUpgrade']
  /** Each request of the route needs an exchange (see `BackendStep.needsExchange`). */
  readonly needsExchange: boolean
  /** The route's `mocks` (its step is in the backend), kept for the inspector's "Mock this answer". */
  readonly mocks: RouteMocks | undefined
  /** Ends what the route holds: the mock backend's open event streams, held `?delay=` answers and echo sockets. */
  close(): Promise<void>
}

/** What the steps need from the proxy: the upstream pools, the logger, the failure log, the recordings folder, the root. */
export interface RoutePipelineDeps extends BackendDeps {
  /** Where a relative mocks folder goes: the dev server's root, or the working directory. */
  readonly root?: string | undefined
}

/**
 * Builds a route's pipeline once from its resolved options (nothing is validated here: the
 * configuration was resolved whole, earlier): the CORS step (with `cors`), the JSONP step (with
 * `jsonp`), then the route's backend (`createBackendStep`: faults, mocks, recordings and the
 * target, each where the route uses it), as described at the top of pipeline/route-pipeline.ts.
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
  const jsonp = createJsonpRouteStep(route, deps.logger)
  if (jsonp !== undefined) steps.push(jsonp)
  const mocks = createRouteMocks(route, { ...deps, root: deps.root ?? process.cwd() })
  const backend = createBackendStep(route, deps, { control, mocks })
  steps.push(backend.step)
  return {
    run: composeSteps(steps),
    upgrade: backend.upgrade,
    fetchUpgrade: backend.fetchUpgrade,
    needsExchange: backend.needsExchange,
    mocks,
    close: backend.close,
  }
}
