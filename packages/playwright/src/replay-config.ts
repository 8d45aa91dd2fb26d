import type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'

/**
 * How a test's calls are answered: `'replay'` from the recordings and mocks only (the target is
 * never contacted; a call with no recording is unmatched), `'missing'` from the recordings where
 * they have the call, else forwarded to the live target and recorded (`record: 'missing'`), to
 * refresh the files.
 */
export type ReplayMode = 'replay' | 'missing'

/** The modes, for validation and messages. */
export const REPLAY_MODES: readonly ReplayMode[] = Object.freeze(['replay', 'missing'])

/**
 * What only a Node server can honour, which the Fetch handler refuses: harmless to drop when
 * nothing is forwarded, since none of it touches a replayed answer.
 */
function withoutNodeOptions(route: RouteOptions): RouteOptions {
  const { configure: _configure, agent: _agent, on, ...rest } = route
  if (on === undefined) return rest
  const { proxyReq: _proxyReq, ...hooks } = on
  return { ...rest, on: hooks }
}

/** One route under `mode`; a mock-backend route (`mock`) answers as it always does. */
function replayRoute(route: RouteConfig, mode: ReplayMode): RouteConfig {
  const object: RouteOptions = typeof route === 'string' ? { target: route } : route
  if (object.mock !== undefined && object.mock !== false) return object
  const { replay: _replay, record: _record, ...rest } = object
  if (mode === 'replay') return { ...withoutNodeOptions(rest), replay: 'only' }
  // `record: 'missing'` is the core's (replays what it has, forwards and records the rest).
  return { ...rest, record: 'missing' }
}

/**
 * The configuration a test's replay runs: every forwarding route with `replay: 'only'` (or
 * `record: 'missing'`), the inspector and the overlay off (there is no dev server to serve
 * them), and the log at `'warn'` unless the configuration sets it (a routes line per test would
 * drown the runner's output). The caller's objects are copied, never changed.
 *
 * @example
 * replayConfig({ routes: { '/api': 'http://localhost:3000' } }, 'replay')
 * // { routes: { '/api': { target: 'http://localhost:3000', replay: 'only' } }, inspector: false, overlay: false, log: 'warn' }
 */
export function replayConfig(config: CorsDevProxyConfig, mode: ReplayMode): CorsDevProxyConfig {
  const { routes, ...options } = config
  const replayed: Routes = {}
  for (const [prefix, route] of Object.entries(routes)) replayed[prefix] = replayRoute(route, mode)
  const shared: CorsDevProxyOptions = {
    ...options,
    inspector: false,
    overlay: false,
    log: options.log ?? 'warn',
  }
  if (mode === 'replay' && shared.on !== undefined) {
    const { proxyReq: _proxyReq, ...hooks } = shared.on
    shared.on = hooks
  }
  return { ...shared, routes: replayed }
}
