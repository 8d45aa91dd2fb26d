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
 * `BackendSlot` (a step before the target, the forwarder's fallback, the target itself, a step on
 * its WebSocket handshakes) or nothing. The files directly in this folder are what several stand-ins share (the files'
 * masking, their folder names, the atomic write); a stand-in never imports another one
 * (packages/core/test/architecture/layers.test.ts), and none imports inspector/ or proxy/ above.
 *
 * Each stand-in owns its options in `<name>/options/`: their types, their entries of the option
 * table and their resolver. Those files belong to the configuration layer (config/option-table.ts
 * and config/resolve-route.ts read them), so they import only `http/` and `config/`.
 */

/** Builds the forwarder of a route: its target's, or one `targets` entry's, with the slots' fallback. */
export type ForwarderOf = (route: ResolvedForwardRoute) => RouteStep

/** One WebSocket handshake a `ws` route matched, on its way to the route's target. */
export interface Handshake {
  readonly req: IncomingMessage
  readonly socket: Duplex
  readonly head: Buffer
  /** The path the route matched. */
  readonly path: string
  /** Where the handshake goes: the route, or with `targets` the route of the target in use. */
  readonly route: ResolvedRoute
}

/**
 * A stand-in's part in a `ws` route's WebSocket handshakes, as `step` is in its requests, run in
 * the stand-ins' order before the target: it takes the socket, or hands the handshake on (`next`,
 * maybe to another target), at once or after a wait. Returns whether the socket is taken; `false`
 * (nothing took it, not even the target: a mock route's echo off its path) leaves it to the
 * server's other listeners.
 *
 * @example
 * const echo: UpgradeStep = (handshake, next) => mock.upgrade(req, socket, head, path) || next(handshake)
 */
export type UpgradeStep = (handshake: Handshake, next: (handshake: Handshake) => boolean) => boolean

/** A `ws` route's WebSocket handshake as the Fetch handler gets it: a request with no socket. */
export interface FetchHandshake {
  /** The handshake request, read as a Node request. */
  readonly req: Pick<IncomingMessage, 'method' | 'headers'>
  /** The path the route matched. */
  readonly path: string
  /** Where the handshake goes: the route, or with `targets` the route of the target in use. */
  readonly route: ResolvedRoute
}

/**
 * The Fetch handler's counterpart of `UpgradeStep`, where the runtime upgrades the request once
 * told where to: a stand-in answers the handshake itself (a `Response`, a fault) or hands it on
 * (`next`, maybe to another target), at once or after a wait.
 *
 * @example
 * const step: FetchUpgradeStep = async (handshake, next) => next(handshake)
 */
export type FetchUpgradeStep = <Answer>(
  handshake: FetchHandshake,
  next: (handshake: FetchHandshake) => Promise<Answer>,
) => Promise<Answer | Response>

/** What a stand-in gives a route's backend, each part only where the route uses it. */
export interface BackendSlot {
  /** A step before the target, in the stand-ins' order: it answers some requests and hands the others on (`next()`). */
  readonly step?: RouteStep | undefined
  /** Asked where the forwarder fails, before its 502/504: `true` when it answered (a replay). */
  readonly fallback?: UpstreamFallback | undefined
  /** The route's target in place of its forwarder (the mock backend, the `targets` switch), built once. */
  readonly target?: ((forwarderOf: ForwarderOf) => RouteStep) | undefined
  /** A step before the target on the route's WebSocket handshakes (the faults, the mock backend's echo). */
  readonly upgrade?: UpgradeStep | undefined
  /** The same on the Fetch handler's WebSocket handshakes (the faults, the target in use). */
  readonly fetchUpgrade?: FetchUpgradeStep | undefined
  /**
   * The slot keeps per-request state in the request's exchange (pipeline/exchange.ts: the
   * upload's pace, the recordings' body copy): the engine makes one for each of the route's
   * requests, which a plain route goes without.
   */
  readonly needsExchange?: boolean | undefined
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
