import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import type { UpstreamFallback } from '../forward/forward-context.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'

/*
 * The stand-ins for the backend: what answers where a route's target would, or changes how it
 * answers, one subfolder each, in the order the backend step runs them:
 * 1. control/: the live switches (latency, faults, throttle, the `targets` switch) and the
 *    `/__cors-dev-proxy/control` endpoint;
 * 2. route-mocks/: per-path `mocks` files and functions beside a real target, and
 *    `/__cors-dev-proxy/mock` ("Mock this answer");
 * 3. recordings/: `record` and `replay`, and `import-har`;
 * 4. mock-backend/: the echo backend of a `mock` route, also served alone (`startMockBackend`,
 *    the CLI's `mock`).
 *
 * The backend step (proxy/create-backend-step.ts) builds them through one seam: a stand-in is a
 * `StandIn`, a function of the route and what the proxy holds, that gives the route its
 * `BackendSlot` (a step before the target, the forwarder's fallback, the target itself) or
 * nothing. The files directly in this folder are what several stand-ins share (the files'
 * masking, their folder names, the atomic write); a stand-in never imports another one
 * (packages/core/test/architecture/layers.test.ts), and none imports inspector/ or proxy/ above.
 *
 * Each stand-in owns its options in `<name>/options/`: their types, their entries of the option
 * table and their resolver. Those files belong to the configuration layer (config/option-table.ts
 * and config/resolve-route.ts read them), so they import only `http/` and `config/`.
 */

/** Builds the forwarder of a route: its target's, or one `targets` entry's, with the slots' fallback. */
export type ForwarderOf = (route: ResolvedForwardRoute) => RouteStep

/** Takes a WebSocket upgrade where the target would, at the matched path; `false` leaves the socket alone. */
export interface UpgradeTaker {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): boolean
}

/** What a stand-in gives a route's backend, each part only where the route uses it. */
export interface BackendSlot {
  /** A step before the target, in the stand-ins' order: it answers some requests and hands the others on (`next()`). */
  readonly step?: RouteStep | undefined
  /** Asked where the forwarder fails, before its 502/504: `true` when it answered (a replay). */
  readonly fallback?: UpstreamFallback | undefined
  /** The route's target in place of its forwarder (the mock backend, the `targets` switch), built once. */
  readonly target?: ((forwarderOf: ForwarderOf) => RouteStep) | undefined
  /** Where the route's WebSocket upgrades go instead of the target (the mock backend's echo). */
  readonly upgrades?: UpgradeTaker | undefined
  /** Ends what the slot holds: file watchers, open streams, held answers, sockets. */
  close?(): Promise<void> | void
}

/**
 * One stand-in for the backend, as the backend step sees it: given a route and what it needs from
 * the proxy (`Deps`), the route's slot, or `undefined` for a route that does not use it (which
 * then costs nothing per request).
 *
 * @example
 * const recordingsStandIn: StandIn<{ recordings?: RecordingStore }> = (route, deps) =>
 *   route.kind === 'forward' && deps.recordings ? createRouteRecordings(route, deps.recordings, logger) : undefined
 */
export type StandIn<Deps> = (route: ResolvedRoute, deps: Deps) => BackendSlot | undefined
