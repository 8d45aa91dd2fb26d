import type { BackendSlot, StandIn } from '../stand-in.js'

/** What the route mocks stand-in needs from the proxy. */
export interface RouteMocksStandInDeps {
  /**
   * The route's `mocks` (`createRouteMocks`), built with its pipeline because the inspector's
   * "Mock this answer" writes to their folder too; `undefined` on a route without `mocks`.
   */
  readonly mocks?: BackendSlot | undefined
}

/**
 * The `mocks` slot of a route's backend: after the faults (a mocked answer is delayed and failed
 * like a forwarded one), before the recordings and the target (a mocked answer is neither
 * recorded nor replayed).
 *
 * @example
 * const slot = routeMocksStandIn(route, { mocks: createRouteMocks(route, deps) })
 */
export const routeMocksStandIn: StandIn<RouteMocksStandInDeps> = function routeMocksStandIn(_route, deps) {
  return deps.mocks
}
