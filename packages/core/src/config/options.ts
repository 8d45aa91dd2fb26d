import type { Agent as HttpAgent } from 'node:http'

export type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

import type { CONTRACT_OPTIONS } from '../contract/options/openapi-option-table.js'
import type {
  FailWith,
  FaultOptions,
  Latency,
  TargetChoice,
} from '../stand-ins/control/options/control-options.js'
import type { MockBackendOptions } from '../stand-ins/mock-backend/options/echo-backend-options.js'
import type { RecordingsOptions } from '../stand-ins/recordings/options/recordings-options.js'
import type { MatchOption } from '../stand-ins/recordings/options/route-match-options.js'
import type { MocksOption } from '../stand-ins/route-mocks/options/route-mocks-options.js'
import type { CorsOptions } from './cors-options.js'
import type {
  Bypass,
  ConfigurableProxy,
  PathFilter,
  ProxyHooks,
  Router,
  TransformResponse,
} from './hook-options.js'
import type { InspectorOptions } from './inspector-options.js'
import type { WrittenOptions } from './option-entry.js'
import type { ANSWER_OPTIONS } from './option-table-answer.js'
import type { GLOBAL_ONLY_OPTIONS } from './option-table-global.js'
import type { REQUEST_OPTIONS } from './option-table-request.js'
import type { JsonpOptions, LogSink, PathRewrite } from './option-value-types.js'
import type { TargetObject } from './validate-target.js'

export type { CookieRewrite, JsonpOptions, LogLevel, LogSink, PathRewrite } from './option-value-types.js'

/**
 * The parts of the option table that hold simple options (entries built by `option<Written>()`),
 * keyed by name: `RouteOptions`, `CorsDevProxyOptions` and `ResolvedSimpleOptions` take those
 * options' fields from their entries. A new part of the table with simple options joins here.
 */
export type SimpleOptionParts = typeof REQUEST_OPTIONS &
  typeof ANSWER_OPTIONS &
  typeof CONTRACT_OPTIONS &
  typeof GLOBAL_ONLY_OPTIONS

/**
 * One proxied route. Option names follow http-proxy-middleware and Vite's `server.proxy`
 * wherever the meaning is the same.
 *
 * @example
 * { target: 'http://localhost:3000', pathRewrite: false, ws: true, cors: { credentials: true } }
 */
export interface RouteOptions extends WrittenOptions<SimpleOptionParts, 'route' | 'both'> {
  // The simple options (`xfwd`, `timeout`...) are the entries built by `option<Written>()` in the
  // option table (option-table-*.ts), each typed there, its hover text the JSDoc of its property.
  // Here the rich options' types, with the first sentence of their doc for an editor's hover: the
  // whole doc text, default and example are the option's entry in the table.
  /**
   * Where requests go: an `http:`, `https:`, `ws:` or `wss:` URL; a path in it is prepended (`http://h/v1`
   * + `/users` → `/v1/users`).
   */
  target?: string | URL | TargetObject
  /**
   * http-proxy's `auth`: `'user:password'`, sent upstream as Basic `Authorization` when the request carries
   * no `Authorization` of its own (as Node's `http.request({ auth })` does).
   */
  auth?: string
  /** How the path is rewritten before forwarding. */
  pathRewrite?: PathRewrite
  /**
   * Answer preflights here (204) and add CORS headers to every response of the route (proxied answers and
   * the proxy's own 502/504), instead of forwarding `OPTIONS` to the target.
   */
  cors?: boolean | CorsOptions
  /**
   * Answer from the built-in [mock backend](/guide/mock-backend) instead of a target: an echo of each
   * request, CORS modes, cookies, event streams and a WebSocket echo.
   */
  mock?: boolean | MockBackendOptions
  /**
   * Wrap the JSON answers of GET requests that carry a callback parameter as JSONP (`typeof cb ===
   * 'function' && cb(<json>);`, served as `application/javascript`).
   */
  jsonp?: boolean | JsonpOptions
  /**
   * http-proxy-middleware's hooks: `proxyReq`, `proxyRes`, `error` and `proxyReqWs`, async allowed and
   * awaited.
   */
  on?: ProxyHooks
  /**
   * Vite's `configure(proxy, options)`: called once, at construction; register hooks with
   * `proxy.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)`.
   */
  configure?: (proxy: ConfigurableProxy, options: RouteOptions) => void
  /**
   * Vite's `bypass(req, res, options)`: return a path to have the dev server serve it instead, `false` to
   * answer 404, nothing to proxy.
   */
  bypass?: Bypass
  /**
   * A target per request (http-proxy-middleware's `router`): a function `(req, res, options)` returning a
   * URL string, a `URL` or a target object (async allowed; `undefined` keeps the route's target; `options`
   * is the request's own copy of the route as written: a `target` assigned or `headers` changed there apply
   * to that request only, as in hpm 4), or an object of `'host'`, `'/path'` or `'host/path'` keys to
   * targets (a host as the browser sends it, port included, matched whole; a path matched segment-safe; the
   * first match in the order written).
   */
  router?: Router
  /**
   * Which requests of the prefix the route takes (http-proxy-middleware's `pathFilter`): a function `(path,
   * req) => boolean`, a path prefix or a list of them (segment-safe, like route keys; globs are refused
   * with the function form as the fix).
   */
  pathFilter?: PathFilter
  /**
   * Rewrites the target's answers (http-proxy-middleware's `responseInterceptor`): `(body, proxyRes, req,
   * res) => newBody` gets the whole body as a Buffer, decompressed (at most 16 MiB); a Buffer or string is
   * the new body, `undefined` keeps it, anything else is sent as JSON.
   */
  transformResponse?: TransformResponse
  /**
   * http-proxy-middleware's `logger` (v3+), per route: one `info` line per answered request
   * (`[cors-dev-proxy] GET /api/users -> http://localhost:3000/users [200]`) and one `error` line per
   * failure, as its `loggerPlugin` writes them.
   */
  logger?: LogSink
  /**
   * http-proxy-middleware's `plugins` (v3+): `(proxyServer, options) => void`, called once at construction;
   * `proxyServer.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)` registers a hook (as `configure`
   * does).
   */
  // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
  plugins?: Array<(proxyServer: ConfigurableProxy, options: any) => void>
  /**
   * http-proxy-middleware's `ejectPlugins`: accepted; nothing here is a plugin to eject (an `on.error` hook
   * that answers replaces the 502/504), which `true` says at start-up.
   */
  ejectPlugins?: boolean
  /**
   * http-proxy's `followRedirects`: follow the target's redirects on the server side, with the browser's
   * rules: at most 20 (or the number given, 1 to 20), a 301/302 answer to a POST and a 303 become a GET
   * without body, and `Authorization` and `Cookie` are not sent to another origin.
   */
  followRedirects?: boolean | number
  /**
   * http-proxy's `agent`: an `http.Agent` or `https.Agent` whose `maxSockets` (most connections),
   * `keepAlive` (`false`: a connection per request) and TLS options (`ca`, `cert`, `key`,
   * `rejectUnauthorized`...) are applied to the route's undici pool.
   */
  agent?: HttpAgent | false
  /**
   * Milliseconds added before each request of the route is forwarded (a slow backend), or `[min, max]` for
   * a delay drawn per request.
   */
  latency?: Latency
  /**
   * The share of the route's requests (0 to 1) answered with `failWith` instead of being forwarded (a flaky
   * backend).
   */
  failRate?: number
  /**
   * What a request failed by `failRate` gets: a status (400 to 599), or `'reset'` to drop the client's
   * connection.
   */
  failWith?: FailWith
  /**
   * Bytes per second: the route's answers are streamed to the client no faster, with back-pressure (the
   * target is read no faster either, nothing is buffered whole).
   */
  throttle?: number
  /**
   * Faults for some paths only: `'METHOD /path'` or `'/path'` keys relative to the route's prefix (`:name`
   * matches one segment, `*` the rest), each with `latency`, `failRate`, `failWith` and `throttle`.
   */
  faults?: Record<string, FaultOptions>
  /**
   * Named targets instead of `target`, the first one used by default; the inspector switches between them
   * without a restart, and `cors-dev-proxy.local.json` (`{ "targets": { "/api": "staging" } }`) or
   * `CORS_DEV_PROXY_TARGETS=/api=staging` picks another for one developer.
   */
  targets?: Record<string, TargetChoice>
  /**
   * Writes each exchange of the route to a file in the project (`recordings.dir`, one JSON file per
   * distinct request holding its answers in order, secrets masked), for `replay` to answer from later.
   * `'missing'` replays what has a recording and forwards and records what has none.
   */
  record?: boolean | 'missing'
  /**
   * Answers from the recordings: `'fallback'` when the target cannot be reached, or does not answer within
   * the route's `timeout` when it has one (offline mode); `'only'` without ever contacting the target.
   */
  replay?: 'fallback' | 'only'
  /**
   * How requests find their recordings: `{ ignoreQuery: ['_t'], matchHeaders: ['x-tenant'], body: 'subset' }`,
   * or a function `(request, recorded) => boolean` asked for each recording of the route.
   */
  match?: MatchOption
  /**
   * Answers some paths here while the rest goes to the target: `'METHOD /path/:param'` (or `'/path'`, any
   * method) keys relative to the route's prefix, each an answer `{ status, headers, json | body }` or a
   * function of the request (returning `undefined` lets it go on to the target); `true` reads mock files
   * from `cors-dev-proxy/mocks/<route>/` (also read with keys, first), a string from that folder instead.
   */
  mocks?: MocksOption
}

/** A route: a target URL, or a route object. */
export type RouteConfig = string | RouteOptions

/** Routes by path prefix; the longest matching prefix wins, whatever the key order. */
export type Routes = Record<string, RouteConfig>

/**
 * Options shared by all routes (the second argument). Route-level values win.
 *
 * @example
 * createCorsDevProxy({ '/api': 'http://localhost:3000' }, { cors: true, log: 'debug' })
 */
export interface CorsDevProxyOptions
  extends WrittenOptions<SimpleOptionParts, 'global' | 'both'>,
    Pick<RouteOptions, 'cors' | 'jsonp' | 'on'> {
  // The simple options (`log`, `overlay`, and the routes' defaults such as `xfwd`) come from their
  // entries in the option table, as `RouteOptions`'s do; here the rich ones.
  /**
   * The exchange inspector at `/__cors-dev-proxy/`: the recent exchanges of every route (a ring of
   * `exchanges` entries; `Authorization`, `Cookie`, `Set-Cookie` and token-like query values masked), live
   * over server-sent events, a HAR 1.2 export at `/__cors-dev-proxy/har`, and replay.
   */
  inspector?: boolean | InspectorOptions
  /**
   * Where the routes with `record` or `replay` keep their recordings, and the bounds (see
   * `RecordingsOptions`).
   */
  recordings?: RecordingsOptions
}
