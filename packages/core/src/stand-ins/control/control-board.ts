import { CorsDevProxyError } from '../../config/errors.js'
import type { Logger } from '../../log/logger.js'
import { type ResolvedFaults, resolveFaults } from './options/resolve-control.js'
import { anyFaultOn, faultsActive, type RouteControl } from './route-control.js'

/** One route as `GET /__cors-dev-proxy/control` shows it. */
export interface RouteControlView {
  readonly route: string
  readonly targets: ReadonlyArray<{ readonly name: string; readonly url: string }>
  /** The target in use; `null` without `targets`. */
  readonly target: string | null
  readonly faultsOn: boolean
  /** The route-wide faults in effect; `null`: none. */
  readonly faults: Readonly<Record<string, unknown>> | null
  /** The `faults` keys (`'GET /users/:id'`), which apply while `faultsOn`. */
  readonly paths: readonly string[]
  /** Whether the route records now; `null`: it cannot (no `record: true` or `replay: 'fallback'`). */
  readonly record: boolean | null
}

/** What `GET /__cors-dev-proxy/control` answers. */
export interface ControlView {
  /** Whether any fault or latency is on (the overlay's badge). */
  readonly faultsOn: boolean
  readonly routes: readonly RouteControlView[]
}

/** An answer of `apply`: the status and the JSON body to send. */
export interface ControlAnswer {
  readonly status: number
  readonly body: unknown
}

/** The routes' live switches behind the inspector's control API, one board per proxy. */
export interface ControlBoard {
  readonly routes: readonly RouteControl[]
  /** Every switchable route and its state. */
  view(): ControlView
  /** Applies `{ route, target?, faultsOn?, latency?, failRate?, failWith?, throttle?, record? }`; never throws. */
  apply(change: unknown): ControlAnswer
  /** Whether any fault or latency is on now. */
  faultsOn(): boolean
}

function describeFaults(faults: ResolvedFaults | undefined): string {
  if (!faultsActive(faults) || faults === undefined) return 'none'
  const parts: string[] = []
  if (faults.latency !== undefined) {
    const [min, max] = faults.latency
    parts.push(min === max ? `latency ${min} ms` : `latency ${min}-${max} ms`)
  }
  if (faults.failRate > 0) parts.push(`failRate ${faults.failRate} → ${faults.failWith}`)
  if (faults.throttle !== undefined) parts.push(`throttle ${faults.throttle} B/s`)
  return parts.join(', ')
}

function viewOf(entry: RouteControl): RouteControlView {
  const faults = entry.state.faults
  return {
    route: entry.route.prefix,
    targets: entry.control.targets.map((target) => ({ name: target.name, url: target.url.href })),
    target: entry.state.target ?? null,
    faultsOn: entry.state.faultsOn,
    faults:
      faults === undefined
        ? null
        : { ...faults, latency: faults.latency ?? null, throttle: faults.throttle ?? null },
    paths: entry.control.rules.map((rule) => rule.key),
    record: entry.state.record ?? null,
  }
}

/** The change's fault values over the state's, checked as the configuration is. */
function mergeFaults(
  current: ResolvedFaults | undefined,
  change: Record<string, unknown>,
): ResolvedFaults | undefined {
  const merged: Record<string, unknown> = { ...current }
  for (const name of ['latency', 'failRate', 'failWith', 'throttle']) {
    if (!Object.hasOwn(change, name)) continue
    merged[name] = change[name] === null ? undefined : change[name]
  }
  return resolveFaults(merged, (name) => name)
}

/** A route's state as the log line of a change says it: target, faults, and recording where it can. */
function describeState({ state }: RouteControl): string {
  const target = state.target === undefined ? '(its own)' : `'${state.target}'`
  const faults = state.faultsOn ? describeFaults(state.faults) : 'off'
  const record = state.record === undefined ? '' : `, recording ${state.record ? 'on' : 'off'}`
  return `target ${target}, faults ${faults}${record}`
}

/** Why `record` cannot be applied to the route (400), or `undefined` when it can (or is absent). */
function refuseRecord(entry: RouteControl, record: unknown): ControlAnswer | undefined {
  if (record === undefined) return undefined
  if (typeof record !== 'boolean') return { status: 400, body: { error: 'record must be true or false' } }
  if (entry.state.record !== undefined) return undefined
  return {
    status: 400,
    body: {
      error: `route '${entry.route.prefix}' has no recordings to switch: give it record: true or replay: 'fallback' in the config (the switch then turns recording on and off live)`,
    },
  }
}

/** Applies a change to one route's state, or says what is wrong with it (400/404). */
function applyTo(entry: RouteControl, change: Record<string, unknown>): ControlAnswer {
  const { state, control } = entry
  if (change.target !== undefined) {
    if (!control.targets.some((target) => target.name === change.target)) {
      const known =
        control.targets.map((target) => target.name).join(', ') || 'none: the route has no `targets`'
      return {
        status: 400,
        body: {
          error: `route '${entry.route.prefix}' has no target ${JSON.stringify(change.target)}; its targets: ${known}`,
        },
      }
    }
  }
  if (change.faultsOn !== undefined && typeof change.faultsOn !== 'boolean') {
    return { status: 400, body: { error: 'faultsOn must be true or false' } }
  }
  const refused = refuseRecord(entry, change.record)
  if (refused !== undefined) return refused
  let faults = state.faults
  try {
    faults = mergeFaults(state.faults, change)
  } catch (error) {
    const message =
      error instanceof CorsDevProxyError ? error.message.replace('[cors-dev-proxy] ', '') : String(error)
    return { status: 400, body: { error: message } }
  }
  if (typeof change.target === 'string') state.target = change.target
  if (typeof change.faultsOn === 'boolean') state.faultsOn = change.faultsOn
  if (typeof change.record === 'boolean') state.record = change.record
  state.faults = faults
  return { status: 200, body: viewOf(entry) }
}

/**
 * The board of a proxy's routes with control options: what the inspector's API reads and
 * writes. Says once at start-up which faults are on (the configured ones), and once per change.
 *
 * @example
 * const board = createControlBoard(controls, logger)
 * board.apply({ route: '/api', target: 'staging' })
 */
export function createControlBoard(routes: readonly RouteControl[], logger: Logger): ControlBoard {
  for (const entry of routes) {
    if (anyFaultOn(entry)) {
      const paths = entry.control.rules.map((rule) => rule.key)
      const parts = faultsActive(entry.state.faults) ? [describeFaults(entry.state.faults)] : []
      if (paths.length > 0) parts.push(`paths ${paths.join(', ')}`)
      logger.warn(
        `faults on for route '${entry.route.prefix}': ${parts.join('; ')} (the overlay shows a badge while any is on; switch them off in the inspector)`,
      )
    }
  }
  const board: ControlBoard = {
    routes,
    view: () => ({ faultsOn: board.faultsOn(), routes: routes.map(viewOf) }),
    faultsOn: () => routes.some(anyFaultOn),
    apply(change) {
      if (
        typeof change !== 'object' ||
        change === null ||
        typeof (change as { route?: unknown }).route !== 'string'
      ) {
        return {
          status: 400,
          body: {
            error: 'send { "route": "/api", "target": "staging" } or { "route": "/api", "latency": 300 }',
          },
        }
      }
      const body = change as Record<string, unknown>
      const entry = routes.find((candidate) => candidate.route.prefix === body.route)
      if (entry === undefined) {
        const known = routes.map((candidate) => candidate.route.prefix).join(', ') || 'none'
        return {
          status: 404,
          body: {
            error: `no route ${JSON.stringify(body.route)} with control options or recordings; routes: ${known}`,
          },
        }
      }
      const answer = applyTo(entry, body)
      if (answer.status === 200) {
        logger.info(`control: route '${entry.route.prefix}' now uses ${describeState(entry)}`)
      }
      return answer
    },
  }
  return board
}
