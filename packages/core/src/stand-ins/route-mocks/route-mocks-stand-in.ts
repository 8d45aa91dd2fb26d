/*
 * stand-ins/route-mocks/: `mocks` beside a real target (docs/guide/mocks.md), second in a route's
 * backend. route-mocks.ts answers a request a file or key matches (files first, most specific
 * first; a function's `undefined` hands on); mock-folder.ts reads the folder again when a `stat`
 * changed (no watcher); mock-file-name.ts names a file after its key; mock-answer-writer.ts
 * writes an answer through forward/'s header rules; function-mock.ts asks a function; and
 * "Mock this answer" writes an exchange as a file (mock-from-exchange.ts) behind
 * `/__cors-dev-proxy/mock` (mock-endpoint.ts).
 */
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
