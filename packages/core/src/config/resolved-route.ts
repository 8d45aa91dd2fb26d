import type { HeaderEntry } from '../http/header-list.js'
import type { PathRewriter } from '../http/rewrite-path.js'
import type { Bypass, TransformResponse } from './hook-options.js'
import type { CookieRewrite, LogLevel, LogSink, PathRewrite } from './options.js'
import type { ResolvedAgent } from './resolve-agent.js'
import type { ResolvedControl } from './resolve-control.js'
import type { ResolvedCorsOptions } from './resolve-cors-options.js'
import type { ResolvedMockBackendOptions } from './resolve-echo-backend-options.js'
import type { ResolvedHooks } from './resolve-hooks.js'
import type { ResolvedInspectorOptions } from './resolve-inspector-options.js'
import type { ResolvedMatch } from './resolve-match-options.js'
import type { ResolvedPathFilter } from './resolve-path-filter.js'
import type { ResolvedRecordingsOptions } from './resolve-recordings-options.js'
import type { ResolvedMocks } from './resolve-route-mocks.js'
import type { ResolvedRouter } from './resolve-router.js'

/** `jsonp` after resolution: the callback parameter's name. */
export interface ResolvedJsonpOptions {
  readonly param: string
}

/** What every route has, whether it forwards or mocks. */
interface ResolvedRouteBase {
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

/**
 * The simple options of a forwarding route (the option table's entries with a validator, but
 * `ws`, which a mock route has too): each filled in from the route, the shared options or the
 * table's default by `applyOptions`, in one spread. A new simple option's resolved type goes here.
 */
export interface ResolvedSimpleOptions {
  readonly changeOrigin: boolean
  readonly xfwd: boolean
  readonly secure: boolean
  /** Offer HTTP/2 to an `https:` target by ALPN. */
  readonly http2: boolean
  /** Milliseconds to wait for response headers; `undefined`: no deadline (the default). */
  readonly timeout: number | undefined
  /** Fixed extra upstream headers, names lowercased. */
  readonly headers: readonly HeaderEntry[]
  readonly cookieDomainRewrite: CookieRewrite
  readonly cookiePathRewrite: CookieRewrite
  /** Point redirects at the target back at the dev server (see `RouteOptions.rewriteLocation`). */
  readonly rewriteLocation: boolean
  /** Send a same-origin call's `Origin` as the target's (see `RouteOptions.rewriteOrigin`). */
  readonly rewriteOrigin: boolean
  /** Send every upgrade's `Origin` as the target's (Vite's `rewriteWsOrigin`). */
  readonly rewriteWsOrigin: boolean
}

/** A route that forwards to a target. */
export interface ResolvedForwardRoute extends ResolvedRouteBase, ResolvedSimpleOptions {
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
  /** The hooks, in the order they run: the shared `on`, the route's `on`, its `configure`. */
  readonly hooks: ResolvedHooks
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
 * A route after validation, with every default filled in and every matcher precomputed.
 * Built once by `resolveOptions`; never rebuilt per request. `kind` tells a forwarding route
 * from a mocking one, so no code has to guess from which fields are set.
 */
export type ResolvedRoute = ResolvedForwardRoute | ResolvedMockRoute

/** Everything the proxy works from, resolved once. */
export interface ResolvedCorsDevProxyOptions {
  /** Routes sorted longest prefix first, so the first match is the longest. */
  readonly routes: readonly ResolvedRoute[]
  readonly log: LogLevel
  /**
   * Where log lines go, when the user chose it; `undefined` lets the host decide (the dev
   * server's logger in the adapters, the console otherwise).
   */
  readonly logger: LogSink | undefined
  /** `createCorsDevProxy`'s middleware subscribes to its server's `'upgrade'` event (see `CorsDevProxyOptions.subscribeUpgrade`). */
  readonly subscribeUpgrade: boolean
  /** The adapters inject the overlay's client script (see `CorsDevProxyOptions.overlay`). */
  readonly overlay: boolean
  /** The exchange inspector's settings; `undefined` when `inspector: false` (nothing recorded). */
  readonly inspector: ResolvedInspectorOptions | undefined
  /** Where `record` and `replay` keep their files, and the bounds. */
  readonly recordings: ResolvedRecordingsOptions
  /**
   * Advice about the configuration that is not an error (a `maxAge` Chromium caps, a lowercase
   * method name...), for the proxy to log once at start-up.
   */
  readonly warnings: readonly string[]
}
