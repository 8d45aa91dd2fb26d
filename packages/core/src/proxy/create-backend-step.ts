import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import { createContractRoute } from '../contract/contract-route.js'
import type { ViolationLog } from '../contract/violation-log.js'
import { withCorsDiagnostics } from '../cors/cors-diagnostics.js'
import { createForwarder } from '../forward/create-forwarder.js'
import type { ForwardDeps, UpstreamFallback } from '../forward/forward-context.js'
import { composeSteps, type RouteStep } from '../pipeline/route-pipeline.js'
import { controlStandIn } from '../stand-ins/control/control-stand-in.js'
import type { RouteControl } from '../stand-ins/control/route-control.js'
import { mockBackendStandIn } from '../stand-ins/mock-backend/mock-backend-stand-in.js'
import type { RecordingStore } from '../stand-ins/recordings/recording-store.js'
import { recordingsStandIn } from '../stand-ins/recordings/recordings-stand-in.js'
import { routeMocksStandIn } from '../stand-ins/route-mocks/route-mocks-stand-in.js'
import type {
  BackendSlot,
  FetchHandshake,
  FetchUpgradeStep,
  Handshake,
  StandIn,
  UpgradeStep,
} from '../stand-ins/stand-in.js'

/** What the backend step needs from the proxy: the upstream pools, the logger, the failure log, the recordings folder. */
export interface BackendDeps extends ForwardDeps {
  /** The recordings folder, when a route has `record` or `replay`. */
  readonly recordings?: RecordingStore | undefined
  /** Where a relative `openapi` document goes: the dev server's root, or the working directory. */
  readonly root?: string | undefined
  /** The proxy's distinct OpenAPI violations, when a route has `openapi`. */
  readonly violations?: ViolationLog | undefined
}

/** What a route's backend is made of beside its resolved options. */
export interface BackendParts {
  /** The route's live switches, on a route with control options (faults, `targets`). */
  readonly control?: RouteControl | undefined
  /** Per-path answers beside the target (`mocks`, see `routeMocksStandIn`). */
  readonly mocks?: BackendSlot | undefined
}

/** A route's backend: the step that stands for its target, and what it holds open. */
export interface BackendStep {
  /** The route's last step: it always answers (or passes an error on). */
  readonly step: RouteStep
  /**
   * Runs a WebSocket handshake of the route through its stand-ins' upgrade steps (the faults, a
   * `mock` route's echo), in their order, then to `target` (the proxy's forwarding): whether the
   * socket was taken, as `UpgradeStep` says.
   */
  upgrade(handshake: Handshake, target: (handshake: Handshake) => boolean): boolean
  /** The same for the Fetch handler's handshakes: its stand-ins' answer (a fault), or `target`'s. */
  fetchUpgrade<Answer>(
    handshake: FetchHandshake,
    target: (handshake: FetchHandshake) => Promise<Answer>,
  ): Promise<Answer | Response>
  /** A stand-in of the route keeps per-request state in the exchange: each request needs one (see `BackendSlot.needsExchange`). */
  readonly needsExchange: boolean
  /** Ends what the backend holds: the mock backend's streams and sockets, the `mocks` slot's watchers. */
  close(): Promise<void>
}

/**
 * A route's `openapi` (contract/contract-route.ts), first so that it sees every answer, a
 * stand-in's too: its step checks the exchange (and, under `enforce`, refuses a request that
 * breaks the document), its fallback answers from the document (`mock: 'missing'`).
 */
const contractStandIn: StandIn<BackendDeps> = function contractStandIn(route, deps) {
  return createContractRoute(route, deps)
}

/**
 * The stand-ins for the backend, in the backend's order (their steps run in this order, before
 * the target; the first that gives a target replaces the forwarder): the `openapi` check, the
 * faults, the `mocks` slot, the recordings, the mock backend of a `mock` route.
 */
const STAND_INS: readonly StandIn<BackendDeps & BackendParts>[] = [
  contractStandIn,
  controlStandIn,
  routeMocksStandIn,
  recordingsStandIn,
  mockBackendStandIn,
]

/**
 * A route's backend, the one step after CORS and JSONP that answers for the target, built once
 * from the route's stand-ins (`STAND_INS`), each only where the route uses it:
 * 1. the faults (`latency`, `failRate`/`failWith`, `throttle`, `faults`, from the live state),
 * 2. the `mocks` slot (`parts.mocks`),
 * 3. the recordings (`record` taps the forwarded answer; `replay: 'only'` answers from the files),
 * 4. the target: the mock backend of a `mock` route, else the forwarder, or with `targets` the
 *    forwarder of the target in use; `replay: 'fallback'` answers where it fails (a 502/504).
 *
 * A `ws` route's WebSocket handshakes go the same way (`upgrade`): the faults and the target in
 * use, or a `mock` route's echo, before the proxy forwards them.
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
  const standInDeps = { ...deps, ...parts }
  const slots: BackendSlot[] = []
  for (const standIn of STAND_INS) {
    const slot = standIn(route, standInDeps)
    if (slot !== undefined) slots.push(slot)
  }
  const before = slots.flatMap((slot) => (slot.step === undefined ? [] : [slot.step]))
  const fallback = fallbackOf(slots)
  const forwardDeps = fallback === undefined ? deps : { ...deps, fallback }
  const forwarderOf = (forwarded: ResolvedForwardRoute) => createForwarder(forwarded, forwardDeps)
  const replacement = slots.find((slot) => slot.target !== undefined)?.target
  const target = replacement?.(forwarderOf) ?? forwarderOf(route as ResolvedForwardRoute)
  // Without `cors`, answers to cross-origin pages are checked as the browser will check them.
  const terminal = route.cors === undefined ? withCorsDiagnostics(target, route, deps.logger) : target
  return {
    step: before.length === 0 ? terminal : chainSteps([...before, terminal]),
    needsExchange: slots.some((slot) => slot.needsExchange === true),
    upgrade: upgradeChain(slots.flatMap((slot) => (slot.upgrade === undefined ? [] : [slot.upgrade]))),
    fetchUpgrade: fetchUpgradeChain(
      slots.flatMap((slot) => (slot.fetchUpgrade === undefined ? [] : [slot.fetchUpgrade])),
    ),
    async close() {
      await Promise.all(slots.map((slot) => slot.close?.()))
    },
  }
}

/** The slots' fallbacks as one: each asked in order until one answers. */
function fallbackOf(slots: readonly BackendSlot[]): UpstreamFallback | undefined {
  const fallbacks = slots.flatMap((slot) => (slot.fallback === undefined ? [] : [slot.fallback]))
  if (fallbacks.length <= 1) return fallbacks[0]
  return async function fallbacksInOrder(req, res, cause, at) {
    for (const fallback of fallbacks) if (await fallback(req, res, cause, at)) return true
    return false
  }
}

/** The slots' upgrade steps run in order, then the target, as `BackendStep.upgrade`. */
function upgradeChain(steps: readonly UpgradeStep[]): BackendStep['upgrade'] {
  return function backendUpgrade(handshake, target) {
    const from =
      (index: number) =>
      (next: Handshake): boolean => {
        const step = steps[index]
        return step === undefined ? target(next) : step(next, from(index + 1))
      }
    return from(0)(handshake)
  }
}

/** The slots' Fetch upgrade steps run in order, then the target, as `BackendStep.fetchUpgrade`. */
function fetchUpgradeChain(steps: readonly FetchUpgradeStep[]): BackendStep['fetchUpgrade'] {
  return function backendFetchUpgrade<Answer>(
    handshake: FetchHandshake,
    target: (handshake: FetchHandshake) => Promise<Answer>,
  ): Promise<Answer | Response> {
    const from =
      (index: number) =>
      (next: FetchHandshake): Promise<Answer | Response> => {
        const step = steps[index]
        return step === undefined ? target(next) : step(next, from(index + 1))
      }
    return from(0)(handshake)
  }
}

/** Steps run in order as one step, connect's `next` semantics kept (see `composeSteps`). */
function chainSteps(steps: readonly RouteStep[]): RouteStep {
  const run = composeSteps(steps)
  return function backendStep(req, res, next, path, exchange) {
    run(req, res, path, next, exchange)
  }
}
