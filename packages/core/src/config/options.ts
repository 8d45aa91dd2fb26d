import type { Agent as HttpAgent } from 'node:http'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

export type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

import type { FailWith, FaultOptions, Latency, TargetChoice } from './control-options.js'
import type { CorsOptions } from './cors-options.js'
import type { MockBackendOptions } from './echo-backend-options.js'
import type {
  Bypass,
  ConfigurableProxy,
  PathFilter,
  ProxyHooks,
  Router,
  TransformResponse,
} from './hook-options.js'
import type { InspectorOptions } from './inspector-options.js'
import type { RecordingsOptions } from './recordings-options.js'
import type { MocksOption } from './route-mocks-options.js'
import type { TargetObject } from './validate-target.js'

/**
 * Rewrites the path (with its query) before it is sent upstream. An object maps
 * regular-expression strings to replacements, applied in order, as in http-proxy-middleware.
 */
export type PathRewrite =
  | false
  | Record<string, string>
  | ((
      path: string,
      req: ProxyRequest,
      res?: ProxyResponse,
      // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
      options?: any,
    ) => string | Promise<string>)

/** Rewrites a Set-Cookie attribute: `false` keeps it, a string replaces it (`''` removes it), an object maps old → new (`'*'` for any). */
export type CookieRewrite = false | string | Record<string, string>

/**
 * One proxied route. Option names follow http-proxy-middleware and Vite's `server.proxy`
 * wherever the meaning is the same.
 *
 * @example
 * { target: 'http://localhost:3000', pathRewrite: false, ws: true, cors: { credentials: true } }
 */
export interface RouteOptions {
  /**
   * Where requests go: an `http:`, `https:`, `ws:` or `wss:` URL; a path in it is prepended
   * (`http://h/v1` + `/users` → `/v1/users`). Also http-proxy's target object,
   * `{ protocol: 'http:', host: 'localhost', port: 3000 }`, or `{ socketPath: '/tmp/api.sock' }` for a
   * Unix socket (sent with `Host: localhost`). `0.0.0.0` and `[::]`, what servers print when they
   * listen everywhere, are reached on loopback. A route with only a `router` or a `bypass` has no
   * target: a request neither sends elsewhere is answered 502 naming `target`.
   * @default none: required unless `mock`, `router` or `bypass` is set
   * @example 'http://localhost:3000'
   */
  target?: string | URL | TargetObject
  /**
   * http-proxy's `auth`: `'user:password'`, sent upstream as Basic `Authorization` when the
   * request carries no `Authorization` of its own (as Node's `http.request({ auth })` does).
   * @default none
   * @example 'admin:secret'
   */
  auth?: string
  /**
   * Send the target's host as `Host` instead of the dev server's.
   * @default true
   * @example false
   */
  changeOrigin?: boolean
  /**
   * How the path is rewritten before forwarding. By default the route's prefix is removed
   * (`/api/users?x=1` → `/users?x=1`), as a production reverse proxy does; `false` keeps the path
   * as it came (Vite's `server.proxy` and http-proxy-middleware keep it by default). An object maps
   * regular expressions to replacements, applied in order. A function `(path, req, res, options)`
   * (http-proxy-middleware 4's arguments) gets the path with the prefix and its query, and returns
   * the path to send; `res` is `undefined` for a WebSocket upgrade, and `options` is the route as
   * written (on a route with a `router`, the request's copy the router got). It may be async and
   * is awaited; one that throws or rejects answers 502 naming it, and nothing is sent; one that
   * returns no string keeps the path, and the log says so. When the target answers 404 and would
   * have answered the path with the prefix, the log suggests `pathRewrite: false`.
   * @default remove the prefix
   * @example { '^/api/old': '/new' }
   */
  pathRewrite?: PathRewrite
  /**
   * Fixed headers added to every upstream request.
   * @default {}
   * @example { 'x-api-key': 'dev-key' }
   */
  headers?: Record<string, string>
  /**
   * Add `X-Forwarded-For` (appended to the client's), `X-Forwarded-Proto`, `-Host`, `-Port` and
   * `X-Real-IP` to upstream requests.
   * @default true
   * @example false
   */
  xfwd?: boolean
  /**
   * Forward WebSocket upgrades on this prefix (implied by a `ws:` or `wss:` target). On a `mock`
   * route, opens the mock's WebSocket echo at `<prefix>/ws` (with the default `pathRewrite`).
   * The dev server's own sockets (Vite's and webpack-dev-server's HMR) are never forwarded.
   * @default false
   * @example true
   */
  ws?: boolean
  /**
   * Verify the target's TLS certificate. `false` accepts a self-signed target.
   * @default true
   * @example false
   */
  secure?: boolean
  /**
   * Offer HTTP/2 to an `https:` target (negotiated by ALPN; HTTP/1.1 when it declines). The
   * browser-facing side is unchanged, and an `http:` target always gets HTTP/1.1: no browser or
   * proxy negotiates HTTP/2 without TLS. The debug line then shows the upstream hop's protocol
   * (`… over h2`). Off by default because it is slower for many small requests (see the
   * [benchmark](/benchmark)); turn it on for a target that only speaks HTTP/2.
   * @default false
   * @example true
   */
  http2?: boolean
  /**
   * Milliseconds the target has to send its response headers once the request was sent
   * (connecting included; for an upload, from the end of its body) before the proxy answers 504
   * (or, with `replay: 'fallback'`, from the recordings). Without it an answer may take as long as
   * the target needs, as through Vite's, Angular's, webpack-dev-server's and
   * http-proxy-middleware's proxies: a slow export, a long completion, a backend paused at a
   * breakpoint.
   * @default undefined (no deadline)
   * @example 5000
   */
  timeout?: number
  /**
   * Rewrite the `Domain` attribute of Set-Cookie: `false` keeps it, a string replaces it (`''`
   * removes it), an object maps old domains to new ones (`'*'` for any). By default it is removed,
   * so the browser stores the cookie for the dev server's host.
   * @default '' (remove Domain)
   * @example { 'api.example.test': '', '*': 'localhost' }
   */
  cookieDomainRewrite?: CookieRewrite
  /**
   * Rewrite the `Path` attribute of Set-Cookie, with the same forms as `cookieDomainRewrite`.
   * @default false
   * @example { '/': '/api/' }
   */
  cookiePathRewrite?: CookieRewrite
  /**
   * Answer preflights here (204) and add CORS headers to every response of the route (proxied
   * answers and the proxy's own 502/504), instead of forwarding `OPTIONS` to the target. `true`
   * uses the safe defaults (localhost and loopback origins); an object is a [CORS
   * policy](#cors-options). Without it, preflights go to the target untouched and the log explains,
   * in Chromium's words, any answer the browser would block.
   * @default false (preflights are forwarded untouched)
   * @example { origin: 'http://localhost:5173', credentials: true }
   */
  cors?: boolean | CorsOptions
  /**
   * Answer from the built-in [mock backend](/guide/mock-backend) instead of a target: an echo of
   * each request, CORS modes, cookies, event streams and a WebSocket echo. An object sets its
   * [options](#mock-options).
   * @default false
   * @example true
   */
  mock?: boolean | MockBackendOptions
  /**
   * Wrap the JSON answers of GET requests that carry a callback parameter as JSONP
   * (`typeof cb === 'function' && cb(<json>);`, served as `application/javascript`). `true` uses the
   * `callback` parameter; `{ param: 'cb' }` another. A callback name that is not a plain
   * identifier path is answered 400 and never reflected.
   * @default false
   * @example { param: 'cb' }
   */
  jsonp?: boolean | JsonpOptions
  /**
   * Rewrite a redirect's `Location` (and `Content-Location`) that points at the target, absolute
   * or path-absolute, to the dev server's origin with the route's prefix put back, so the
   * browser stays on the dev server: `http://localhost:3000/posts` → `http://localhost:5173/api/posts`.
   * Other origins and relative values are left alone. With a `pathRewrite` object or function it
   * cannot be undone: the header passes unchanged and the log says so once per route.
   * @default true
   * @example false
   */
  rewriteLocation?: boolean
  /**
   * With `changeOrigin`, send a same-origin call's `Origin` (the dev server's own) as the
   * target's origin, so backends that compare `Origin` with `Host` (CSRF checks, WebSocket
   * servers) accept it. Any other `Origin` is forwarded unchanged, and a 403 to such a request
   * gets a hint in the log. WebSocket upgrades follow the same rule.
   * @default true
   * @example false
   */
  rewriteOrigin?: boolean
  /**
   * Vite's option: every WebSocket upgrade's `Origin` becomes the target's, whatever page
   * opened it.
   * @default false
   * @example true
   */
  rewriteWsOrigin?: boolean
  /**
   * http-proxy-middleware's hooks: `proxyReq`, `proxyRes`, `error` and `proxyReqWs`, async
   * allowed and awaited. They run after the shared options' hooks. Not on a mock route. See
   * [Hooks](/guide/hooks) for what each receives.
   * @default none
   * @example { proxyReq: (proxyReq) => proxyReq.setHeader('x-dev', '1') }
   */
  on?: ProxyHooks
  /**
   * Vite's `configure(proxy, options)`: called once, at construction; register hooks with
   * `proxy.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)`. Not on a mock route.
   * @default none
   * @example (proxy) => proxy.on('proxyRes', (proxyRes) => { proxyRes.headers['x-dev'] = '1' })
   */
  configure?: (proxy: ConfigurableProxy, options: RouteOptions) => void
  /**
   * Vite's `bypass(req, res, options)`: return a path to have the dev server serve it instead,
   * `false` to answer 404, nothing to proxy. Also asked for WebSocket upgrades (`res` undefined).
   * A route with a `bypass` needs no `target` if it never proxies.
   * @default none
   * @example (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined)
   */
  bypass?: Bypass
  /**
   * A target per request (http-proxy-middleware's `router`): a function `(req, res, options)`
   * returning a URL string, a `URL` or a target object (async allowed; `undefined` keeps the
   * route's target; `options` is the request's own copy of the route as written: a `target`
   * assigned or `headers` changed there apply to that request only, as in hpm 4), or an object
   * of `'host'`, `'/path'` or `'host/path'` keys to targets (a host as the browser sends it, port
   * included, matched whole; a path matched segment-safe; the first match in the order written).
   * A router that throws answers 502 naming it. Not on a mock route.
   * @default the route's target
   * @example { 'beta.localhost:5173': 'http://localhost:3001' }
   */
  router?: Router
  /**
   * Which requests of the prefix the route takes (http-proxy-middleware's `pathFilter`): a
   * function `(path, req) => boolean`, a path prefix or a list of them (segment-safe, like route
   * keys; globs are refused with the function form as the fix). The others go on to the dev server.
   * @default every request of the prefix
   * @example (path, req) => req.method !== 'GET' || !path.endsWith('.html')
   */
  pathFilter?: PathFilter
  /**
   * Rewrites the target's answers (http-proxy-middleware's `responseInterceptor`):
   * `(body, proxyRes, req, res) => newBody` gets the whole body as a Buffer, decompressed (at
   * most 16 MiB); a Buffer or string is the new body, `undefined` keeps it, anything else is sent
   * as JSON. Headers it sets on `res` win over the target's, and `Content-Length` is computed for
   * the new body. Event streams and bodiless answers are never buffered. Not on a mock route.
   * @default none
   * @example (body) => ({ ...JSON.parse(body.toString('utf8')), env: 'dev' })
   */
  transformResponse?: TransformResponse
  /**
   * http-proxy-middleware's `logger` (v3+), per route: one `info` line per answered request
   * (`[cors-dev-proxy] GET /api/users -> http://localhost:3000/users [200]`) and one `error` line
   * per failure, as its `loggerPlugin` writes them. The shared options' `logger` is different:
   * where cors-dev-proxy's own lines go.
   * @default none
   * @example console
   */
  logger?: LogSink
  /**
   * http-proxy-middleware's `plugins` (v3+): `(proxyServer, options) => void`, called once at
   * construction; `proxyServer.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)` registers
   * a hook (as `configure` does). Other events (`open`, `close`, `start`, `end`, `econnreset`) fail
   * at start-up, naming the plugin. hpm's own plugins (`loggerPlugin`, `proxyEventsPlugin`,
   * `errorResponsePlugin`, `debugProxyErrorsPlugin`) are built in and skipped.
   * @default []
   * @example [(proxyServer) => proxyServer.on('proxyRes', (proxyRes) => { proxyRes.headers['x-dev'] = '1' })]
   */
  // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
  plugins?: Array<(proxyServer: ConfigurableProxy, options: any) => void>
  /**
   * http-proxy-middleware's `ejectPlugins`: accepted; nothing here is a plugin to eject (an
   * `on.error` hook that answers replaces the 502/504), which `true` says at start-up.
   * @default false
   * @example true
   */
  ejectPlugins?: boolean
  /**
   * http-proxy's `followRedirects`: follow the target's redirects on the server side, with the
   * browser's rules: at most 20 (or the number given, 1 to 20), a 301/302 answer to a POST and a
   * 303 become a GET without body, and `Authorization` and `Cookie` are not sent to another
   * origin. One redirect past the limit is a 502. Off by default: the browser follows redirects
   * itself (and `rewriteLocation` keeps it on the dev server).
   * @default false
   * @example 5
   */
  followRedirects?: boolean | number
  /**
   * http-proxy's `agent`: an `http.Agent` or `https.Agent` whose `maxSockets` (most connections),
   * `keepAlive` (`false`: a connection per request) and TLS options (`ca`, `cert`, `key`,
   * `rejectUnauthorized`...) are applied to the route's undici pool. Other agents (proxy agents)
   * and other agent options are refused at start-up.
   * @default keep-alive pool, as many connections as requests in flight
   * @example new http.Agent({ keepAlive: true, maxSockets: 8 })
   */
  agent?: HttpAgent | false
  /**
   * Milliseconds added before each request of the route is forwarded (a slow backend), or
   * `[min, max]` for a delay drawn per request. Switched live from the inspector.
   * @default 0
   * @example [100, 400]
   */
  latency?: Latency
  /**
   * The share of the route's requests (0 to 1) answered with `failWith` instead of being
   * forwarded (a flaky backend). The answer goes through the route's CORS policy and carries
   * `X-Cors-Dev-Proxy-Fault`.
   * @default 0
   * @example 0.2
   */
  failRate?: number
  /**
   * What a request failed by `failRate` gets: a status (400 to 599), or `'reset'` to drop the
   * client's connection.
   * @default 503
   * @example 500
   */
  failWith?: FailWith
  /**
   * Bytes per second: the route's answers are streamed to the client no faster, with
   * back-pressure (the target is read no faster either, nothing is buffered whole).
   * @default no limit
   * @example 16384
   */
  throttle?: number
  /**
   * Faults for some paths only: `'METHOD /path'` or `'/path'` keys relative to the route's
   * prefix (`:name` matches one segment, `*` the rest), each with `latency`, `failRate`,
   * `failWith` and `throttle`. The first key that matches wins over the route's own values.
   * @default none
   * @example { 'GET /users/:id': { failRate: 0.5, failWith: 500 } }
   */
  faults?: Record<string, FaultOptions>
  /**
   * Named targets instead of `target`, the first one used by default; the inspector switches
   * between them without a restart, and `cors-dev-proxy.local.json` (`{ "targets": { "/api":
   * "staging" } }`) or `CORS_DEV_PROXY_TARGETS=/api=staging` picks another for one developer.
   * @default none
   * @example { local: 'http://localhost:3000', staging: 'https://staging.example.com' }
   */
  targets?: Record<string, TargetChoice>
  /**
   * Writes each exchange of the route to a file in the project (`recordings.dir`, one JSON file
   * per distinct request holding its answers in order, secrets masked), for `replay` to answer
   * from later. A recording is on disk when the proxy's `close()` resolves. The inspector's record
   * switch turns it on and off live on a route with `record: true` or `replay: 'fallback'`.
   * @default false
   * @example true
   */
  record?: boolean
  /**
   * Answers from the recordings: `'fallback'` when the target cannot be reached, or does not
   * answer within the route's `timeout` when it has one (offline mode); `'only'` without ever
   * contacting the target. A replayed answer carries `X-Cors-Dev-Proxy-Replayed`; a request with
   * no recording gets 504 (`'fallback'`) or 404 (`'only'`) naming the closest recording.
   * @default undefined (never replays)
   * @example 'fallback'
   */
  replay?: 'fallback' | 'only'
  /**
   * Answers some paths here while the rest goes to the target: `'METHOD /path/:param'` (or
   * `'/path'`, any method) keys relative to the route's prefix, each an answer `{ status, headers,
   * json | body }` or a function of the request (returning `undefined` lets it go on to the
   * target); `true` reads mock files from `cors-dev-proxy/mocks/<route>/` (also read with keys,
   * first), a string from that folder instead. Files are read again when they change, without a
   * restart, and the inspector's "Mock this answer" writes one. Mocked answers get the route's
   * CORS policy and cookie and redirect rewriting, and carry `X-Cors-Dev-Proxy-Mocked`.
   * @default undefined (no mocks)
   * @example { 'GET /users/:id': { status: 200, json: { id: 1, name: 'Ada' } } }
   */
  mocks?: MocksOption
}

/** The object form of a route's `jsonp` option. */
export interface JsonpOptions {
  /**
   * Name of the query parameter that carries the callback name.
   * @default 'callback'
   * @example 'cb'
   */
  param?: string
}

/** A route: a target URL, or a route object. */
export type RouteConfig = string | RouteOptions

/** Routes by path prefix; the longest matching prefix wins, whatever the key order. */
export type Routes = Record<string, RouteConfig>

/** Verbosity of the `[cors-dev-proxy]` log. */
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'

/** Where log lines go; adapters pass the dev server's own logger. */
export interface LogSink {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/**
 * Options shared by all routes (the second argument). Route-level values win.
 *
 * @example
 * createCorsDevProxy({ '/api': 'http://localhost:3000' }, { cors: true, log: 'debug' })
 */
export interface CorsDevProxyOptions
  extends Pick<
    RouteOptions,
    | 'changeOrigin'
    | 'xfwd'
    | 'secure'
    | 'timeout'
    | 'headers'
    | 'cors'
    | 'jsonp'
    | 'rewriteLocation'
    | 'rewriteOrigin'
    | 'on'
  > {
  /**
   * How much to log: `'debug'` adds one line per answered request with both hops, the
   * protocols, the status and the time (`h2 GET /api/users → http://localhost:3000/users 200 12 ms`).
   * @default 'info'
   * @example 'debug'
   */
  log?: LogLevel
  /**
   * Where cors-dev-proxy's own lines go: `{ info, warn, error }`. The adapters pass the dev
   * server's logger (Vite's, webpack's infrastructure logger, Rsbuild's, Nuxt's) unless this is set.
   * @default console, or the dev server's logger
   * @example { info: console.log, warn: console.warn, error: console.error }
   */
  logger?: LogSink
  /**
   * For `createCorsDevProxy(...).middleware` mounted with `app.use` alone: with `ws` routes, the
   * first request it sees subscribes it to that server's `'upgrade'` event, as
   * http-proxy-middleware does with `ws: true`. `false` leaves the wiring to you
   * (`server.on('upgrade', proxy.upgrade)`). Wiring both never handles an upgrade twice. The
   * adapters wire upgrades themselves and ignore it.
   * @default true
   * @example false
   */
  subscribeUpgrade?: boolean
  /**
   * The CORS overlay: the Vite, webpack/Rspack, Rsbuild and Nuxt adapters add a small dev-only
   * script to your pages (`/__cors-dev-proxy/client.js`) that watches `fetch`, `XMLHttpRequest`,
   * `EventSource` and `WebSocket` without changing what they return or send, and, when a call to
   * another origin fails, asks the dev server why (`POST /__cors-dev-proxy/explain`) and shows
   * the answer in a `<cors-dev-proxy-overlay>` element: Chromium's console text, the cause, and
   * the route to add. `false` removes the script and the element entirely (and the `explain`
   * endpoint with them). `cors-dev-proxy serve` never injects it.
   * @default true
   * @example false
   */
  overlay?: boolean
  /**
   * The exchange inspector at `/__cors-dev-proxy/`: the recent exchanges of every route (a ring
   * of `exchanges` entries; `Authorization`, `Cookie`, `Set-Cookie` and token-like query values
   * masked), live over server-sent events, a HAR 1.2 export at `/__cors-dev-proxy/har`, and
   * replay. Bodies are copied only while an inspector is connected. `false` records nothing and
   * answers 404 under `/__cors-dev-proxy/` (except what the overlay needs); an object sets the
   * ring's size and the body limit (see `InspectorOptions`).
   * @default true (200 exchanges, 65536 bytes of each body)
   * @example { exchanges: 500, bodyLimit: 131072 }
   */
  inspector?: boolean | InspectorOptions
  /**
   * Where the routes with `record` or `replay` keep their recordings, and the bounds (see
   * `RecordingsOptions`).
   * @default { dir: 'cors-dev-proxy/recordings', mask: true, maxFiles: 1000, maxAnswers: 20, maxBodyBytes: 1048576, maxGap: 1000 }
   * @example { dir: 'test/recordings', maxFiles: 200 }
   */
  recordings?: RecordingsOptions
}
