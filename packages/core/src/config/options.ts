import type { Agent as HttpAgent } from 'node:http'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

export type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

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
import type { MockBackendOptions } from './mock-options.js'
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
   * Where requests go: an `http:`, `https:`, `ws:` or `wss:` URL (a path in it is prepended), or
   * http-proxy's target object (`{ protocol: 'http:', host: 'localhost', port: 3000 }`, or
   * `{ socketPath: '/tmp/api.sock' }` for a Unix socket). `0.0.0.0` and `[::]` mean loopback.
   * Required unless `mock` is set, or a `router` or `bypass` picks where each request goes.
   */
  target?: string | URL | TargetObject
  /**
   * http-proxy's `auth`: `'user:password'`, sent upstream as Basic `Authorization` when the
   * request carries no `Authorization` of its own.
   * @default none
   */
  auth?: string
  /**
   * Send the target's host as `Host` instead of the dev server's.
   * @default true
   */
  changeOrigin?: boolean
  /**
   * How the path is rewritten before forwarding. By default the prefix is removed
   * (`/api/users?x=1` → `/users?x=1`); `false` keeps it.
   * @default remove the prefix
   */
  pathRewrite?: PathRewrite
  /**
   * Fixed headers added to every upstream request.
   * @default {}
   */
  headers?: Record<string, string>
  /**
   * Add X-Forwarded-For (appended), -Proto, -Host, -Port and X-Real-IP.
   * @default true
   */
  xfwd?: boolean
  /**
   * Forward WebSocket upgrades on this prefix. On a `mock` route, opens the mock's WebSocket
   * echo at `<prefix>/ws` (with the default `pathRewrite`).
   * @default false
   */
  ws?: boolean
  /**
   * Verify the target's TLS certificate. `false` accepts a self-signed target.
   * @default true
   */
  secure?: boolean
  /**
   * Speak HTTP/2 to an `https:` target that offers it (negotiated by ALPN; HTTP/1.1 otherwise).
   * The browser-facing side is unchanged. An `http:` target always gets HTTP/1.1: no browser or
   * proxy negotiates HTTP/2 without TLS.
   * @default false
   */
  http2?: boolean
  /**
   * Milliseconds to wait for the target's response headers before answering 504.
   * @default 30000
   */
  timeout?: number
  /**
   * Rewrite the Domain attribute of Set-Cookie. By default it is removed so the browser
   * stores the cookie for the dev server's host.
   * @default ''
   */
  cookieDomainRewrite?: CookieRewrite
  /**
   * Rewrite the Path attribute of Set-Cookie.
   * @default false
   */
  cookiePathRewrite?: CookieRewrite
  /**
   * Answer preflights here (204) and add CORS headers to every response of the route,
   * instead of forwarding OPTIONS to the target. `true` uses the safe defaults.
   * @default false (preflights are forwarded untouched)
   */
  cors?: boolean | CorsOptions
  /**
   * Answer from the built-in mock backend instead of a target.
   * @default false
   */
  mock?: boolean | MockBackendOptions
  /**
   * Wrap JSON answers of GET requests that carry a callback parameter as JSONP.
   * @default false
   */
  jsonp?: boolean | { param?: string }
  /**
   * Rewrite a redirect's `Location` (and `Content-Location`) that points at the target, absolute
   * or path-absolute, to the dev server's origin with the route's prefix put back, so the
   * browser stays on the dev server: `http://localhost:3000/posts` → `http://localhost:5173/api/posts`.
   * Other origins are left alone.
   * @default true
   */
  rewriteLocation?: boolean
  /**
   * With `changeOrigin`, send a same-origin call's `Origin` (the dev server's own) as the
   * target's origin, so backends that compare `Origin` with `Host` (CSRF checks, WebSocket
   * servers) accept it. Any other `Origin` is forwarded unchanged.
   * @default true
   */
  rewriteOrigin?: boolean
  /**
   * Vite's option: every WebSocket upgrade's `Origin` becomes the target's, whatever page
   * opened it.
   * @default false
   */
  rewriteWsOrigin?: boolean
  /**
   * http-proxy-middleware's hooks: `proxyReq`, `proxyRes`, `error`, `proxyReqWs` (async
   * allowed). They run after the shared options' hooks. Not on a mock route.
   * @default none
   */
  on?: ProxyHooks
  /**
   * Vite's `configure(proxy, options)`: called once, at construction; register hooks with
   * `proxy.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)`. Not on a mock route.
   * @default none
   */
  configure?: (proxy: ConfigurableProxy, options: RouteOptions) => void
  /**
   * Vite's `bypass(req, res, options)`: return a path to serve it from the dev server instead,
   * `false` to answer 404, nothing to proxy. Also asked for WebSocket upgrades (`res` undefined).
   * @default none
   */
  bypass?: Bypass
  /**
   * A target per request (http-proxy-middleware's `router`): a function, or an object of
   * host / path / host+path → target. Not on a mock route.
   * @default the route's target
   */
  router?: Router
  /**
   * Which requests of the prefix the route takes (http-proxy-middleware's `pathFilter`); the
   * others go on to the dev server.
   * @default all of them
   */
  pathFilter?: PathFilter
  /**
   * Rewrites the target's answers (http-proxy-middleware's `responseInterceptor`): gets the
   * whole body, decompressed; returns the new one. Event streams are never buffered. Not on a
   * mock route.
   * @default none
   */
  transformResponse?: TransformResponse
  /**
   * http-proxy-middleware's `logger` (v3+), per route: one `info` line per answered request
   * (`[cors-dev-proxy] GET /api/users -> http://localhost:3000/users [200]`) and one `error` line
   * per failure, as its `loggerPlugin` writes them. The shared options' `logger` is different:
   * where cors-dev-proxy's own lines go.
   * @default none
   */
  logger?: LogSink
  /**
   * http-proxy-middleware's `plugins` (v3+): `(proxyServer, options) => void`, called once at
   * construction; `proxyServer.on('proxyReq' | 'proxyRes' | 'error' | 'proxyReqWs', fn)` registers
   * a hook (as `configure` does). Other events are refused. hpm's own plugins (`loggerPlugin`,
   * `proxyEventsPlugin`, `errorResponsePlugin`, `debugProxyErrorsPlugin`) are built in and skipped.
   * @default []
   */
  // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
  plugins?: Array<(proxyServer: ConfigurableProxy, options: any) => void>
  /**
   * http-proxy-middleware's `ejectPlugins`: accepted; nothing here is a plugin to eject (an
   * `on.error` hook that answers replaces the 502/504), which `true` says at start-up.
   * @default false
   */
  ejectPlugins?: boolean
  /**
   * http-proxy's `followRedirects`: follow the target's redirects on the server side, with the
   * browser's rules: at most 20 (or the number given, 1 to 20), a 301/302 answer to a POST and a
   * 303 become a GET without body, and `Authorization` and `Cookie` are not sent to another
   * origin. One redirect past the limit is a 502. Off by default: the browser follows redirects
   * itself (and `rewriteLocation` keeps it on the dev server).
   * @default false
   */
  followRedirects?: boolean | number
  /**
   * http-proxy's `agent`: an `http.Agent` or `https.Agent` whose `maxSockets` (most connections),
   * `keepAlive` (`false`: a connection per request) and TLS options (`ca`, `cert`, `key`,
   * `rejectUnauthorized`...) are applied to the route's undici pool. Other agents (proxy agents)
   * and other agent options are refused at start-up.
   * @default keep-alive pool, as many connections as requests in flight
   */
  agent?: HttpAgent | false
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
   * How much to log.
   * @default 'info'
   */
  log?: LogLevel
  /**
   * Where to write log lines.
   * @default console
   */
  logger?: LogSink
  /**
   * For `createCorsDevProxy(...).middleware` mounted with `app.use` alone: with `ws` routes, the
   * first request it sees subscribes it to that server's `'upgrade'` event, as
   * http-proxy-middleware does with `ws: true`. `false` leaves the wiring to you
   * (`server.on('upgrade', proxy.upgrade)`). Wiring both never handles an upgrade twice. The
   * adapters wire upgrades themselves and ignore it.
   * @default true
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
   */
  inspector?: boolean | InspectorOptions
}
