/*
 * The parts of a resolved route that are typed by hand: everything but the simple options'
 * values, which resolved-route.ts derives from the option table. The option table's entries
 * (their routes-line notes) read a route through these types only, so the table never imports
 * the types derived from it (no import cycle, type-only ones included).
 */
import type { PathRewriter } from '../http/rewrite-path.js'
import type { ResolvedControl } from '../stand-ins/control/options/resolve-control.js'
import type { ResolvedMockBackendOptions } from '../stand-ins/mock-backend/options/resolve-echo-backend-options.js'
import type { ResolvedMatch } from '../stand-ins/recordings/options/resolve-match-options.js'
import type { ResolvedMocks } from '../stand-ins/route-mocks/options/resolve-route-mocks.js'
import type { Bypass, TransformResponse } from './hook-options.js'
import type { LogSink, PathRewrite } from './option-value-types.js'
import type { ResolvedAgent } from './resolve-agent.js'
import type { ResolvedCorsOptions } from './resolve-cors-options.js'
import type { ResolvedHooks } from './resolve-hooks.js'
import type { ResolvedPathFilter } from './resolve-path-filter.js'
import type { ResolvedRouter } from './resolve-router.js'

/** `jsonp` after resolution: the callback parameter's name. */
export interface ResolvedJsonpOptions {
  readonly param: string
}

/** What every route has, whether it forwards or mocks. */
export interface ResolvedRouteBase {
  /** Normalized prefix: starts with `/`, no trailing `/` (except the root route `/`). */
  readonly prefix: string
  /**
   * The route's place among the routes as written (0 for the first key): the routes line lists
   * them so, while they are matched longest prefix first.
   */
  readonly order: number
  /** Takes WebSocket upgrades (forwarded, or the mock's echo). */
  readonly ws: boolean
  /** Maps the matched request path (with query, dot-segments resolved) to the upstream path (with query), target base path not yet joined. */
  readonly rewritePath: PathRewriter
  /** `pathRewrite` as given (validated, copied, frozen), for the startup line; `undefined` for the default. */
  readonly pathRewrite: PathRewrite | undefined
  /** The route's CORS policy, resolved; `undefined` when preflights are forwarded untouched. */
  readonly cors: ResolvedCorsOptions | undefined
  /** JSONP wrapping of GET answers; `undefined` when off. */
  readonly jsonp: ResolvedJsonpOptions | undefined
  /** Which requests of the prefix the route takes (`pathFilter`); `undefined`: all. */
  readonly pathFilter: ResolvedPathFilter | undefined
  /** Vite's `bypass`, asked first; `undefined`: none. */
  readonly bypass: Bypass | undefined
  /** The route as the user wrote it, handed back to `bypass` as its third argument. */
  readonly source: Readonly<Record<string, unknown>>
  /**
   * Latency, faults and named targets (`latency`, `failRate`, `failWith`, `throttle`, `faults`,
   * `targets`); `undefined` when the route uses none, so it has no control step.
   */
  readonly control: ResolvedControl | undefined
}

/** A route's `logger`, validated, and where it is written (the name of its hooks). */
export interface RouteLogger {
  readonly sink: LogSink
  /** The option's path, `routes['/api'].logger`. */
  readonly option: string
}

/**
 * A route that forwards to a target, but for its simple options' values (`ResolvedForwardRoute`
 * adds them).
 */
export interface ResolvedForwardParts extends ResolvedRouteBase {
  readonly kind: 'forward'
  /** The target; a placeholder (`http://no-target.invalid/`) when `hasTarget` is false. */
  readonly target: URL
  /**
   * Whether that target was written `ws:` or `wss:` (`target` holds the `http:`/`https:` URL
   * every request goes to): the routes line shows it as written.
   */
  readonly websocketTarget: boolean
  /** Whether the route has a target of its own; `false` when only its `router` or `bypass` decides. */
  readonly hasTarget: boolean
  /** A Unix domain socket to connect to instead of the target's host and port (`target: { socketPath }`). */
  readonly socketPath: string | undefined
  /** http-proxy's `agent`, mapped (maxSockets, keepAlive, TLS options); `undefined`: the pool's defaults. */
  readonly agent: ResolvedAgent | undefined
  /** Redirects followed on the server side (`followRedirects`: `true` is 20, the browser's limit); 0: passed to the browser. */
  readonly followRedirects: number
  /** The `Authorization` value from `auth` (`Basic ...`), sent when the request has none; `undefined`: none. */
  readonly authorization: string | undefined
  /**
   * The hooks, in the order they run: the shared `on`, the route's `on`, its `configure`, its
   * `plugins`; then the hooks of its `logger`, which start-up adds (log/request-logger.ts).
   */
  readonly hooks: ResolvedHooks
  /** The route's own `logger` (http-proxy-middleware's: a line per request); `undefined`: none. */
  readonly requestLogger: RouteLogger | undefined
  /** A target per request; `undefined`: always `target`. */
  readonly router: ResolvedRouter | undefined
  /** Rewrites answers (`transformResponse`); `undefined`: none. */
  readonly transformResponse: TransformResponse | undefined
  /** Writes each exchange to the recordings (`record`); `'missing'`: replays what has a recording, records the rest. */
  readonly record: boolean | 'missing'
  /** Answers from the recordings: when the target fails, or always; `undefined`: never. */
  readonly replay: 'fallback' | 'only' | undefined
  /** How requests find their recordings (`match`); `undefined`: the exact key. */
  readonly match: ResolvedMatch | undefined
  /** Per-path answers beside the target (`mocks`); `undefined`: none, and no mocks step. */
  readonly mocks: ResolvedMocks | undefined
}

/** A route that answers from the built-in mock backend. */
export interface ResolvedMockRoute extends ResolvedRouteBase {
  readonly kind: 'mock'
  readonly mock: ResolvedMockBackendOptions
}

/**
 * A resolved route as a routes-line note reads it (`OptionEntry.startup`): every field but the
 * simple options' values, which the note is given.
 */
export type ResolvedRouteParts = ResolvedForwardParts | ResolvedMockRoute
