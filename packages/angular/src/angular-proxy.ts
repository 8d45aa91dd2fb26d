import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { CorsDevProxyConfig, CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { createDevServerProxy, resolveOptions, splitConfig } from '@cors-dev-proxy/core/adapter'
import { exitAngularCliOnConfigurationError } from './angular-cli-exit.js'
import { createDevServerRelay } from './dev-server-relay.js'
import { type NgServeRoutes, ngServeRoutes } from './ng-serve-routes.js'
import { dropViteCorsHeaders } from './vite-cors-headers.js'
import {
  type EntryHost,
  type ServingProxy,
  takeServerUpgrades,
  type WebpackDevServerFields,
  webpackDevServerFields,
} from './webpack-dev-server-fields.js'
import { angularWorkspaceRoot } from './workspace-root.js'

/** The part of Vite's http-proxy instance an entry's `configure` replaces. */
export interface ViteProxyServer {
  web: (...args: never[]) => unknown
  ws: (...args: never[]) => unknown
}

/**
 * One entry of what {@link angularProxy} returns, as Vite's `server.proxy` reads it (the
 * `application` builder), and, through the fields of {@link WebpackDevServerFields},
 * webpack-dev-server's `proxy` (the webpack `browser` builder).
 */
export interface AngularProxyEntry extends WebpackDevServerFields {
  /** Whether Vite hands the path's WebSocket upgrades to the entry: the route's `ws`. */
  ws: boolean
  /** Called by Vite once per entry, with the entry's http-proxy instance: ours replaces its `web` and `ws`. */
  configure: (proxy: ViteProxyServer, options: unknown) => void
  /**
   * Called by Vite before `proxy.web`, and by webpack-dev-server 5 before its proxy: the proxy
   * answers here, or hands the request on (a string).
   */
  bypass: (req: IncomingMessage, res: ServerResponse | undefined) => Promise<string | undefined> | undefined
}

/** The proxy configuration `angular.json`'s `proxyConfig` file exports: one entry per route. */
export type AngularProxyConfig = Record<string, AngularProxyEntry>

/** Everything under it is the inspector's and the overlay's (`/__cors-dev-proxy/client.js`). */
const INSPECTOR_PATH = '/__cors-dev-proxy'

/** Vite's own sockets (HMR, and its ping), which a `ws` route on `/` must leave alone. */
function isViteSocket(req: IncomingMessage): boolean {
  const protocol = req.headers['sec-websocket-protocol']
  return protocol === 'vite-hmr' || protocol === 'vite-ping'
}

/** A failure nobody else will answer (under webpack-dev-server 5): 500 with the cause. */
function answerFailure(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
  res.end(`cors-dev-proxy could not answer: ${String(error)}\n`)
}

/**
 * Vite matches a key starting with `^` as a RegExp on the URL, any other key as a string
 * prefix (`/api` would take `/api2`): each route's key takes its prefix on a segment boundary.
 */
function entryKey(prefix: string): string {
  if (prefix === '/') return '^/'
  return `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[/?]|$)`
}

/**
 * The routes and shared options, resolved, with each route read in Angular's dialect
 * (`ngServeRoutes`). A configuration mistake under the Angular CLI ends it with the message
 * alone; anywhere else it is thrown.
 */
function resolveNgServeOptions(
  routes: NgServeRoutes | Routes | CorsDevProxyConfig,
  options: CorsDevProxyOptions | undefined,
) {
  try {
    const [written, shared] = splitConfig(routes as Routes | CorsDevProxyConfig, options)
    return resolveOptions(ngServeRoutes(written, shared), shared)
  } catch (error) {
    exitAngularCliOnConfigurationError(error)
    throw error
  }
}

/**
 * The proxy for `ng serve` (Angular CLI 21 and 22, the `application` builder and the webpack
 * `browser` builder), from the file
 * `angular.json`'s `proxyConfig` names. Routes and options are those of `createCorsDevProxy`,
 * read as `ng serve` reads a `proxy.conf.json`, so such a file's entries move over unchanged:
 * the path is kept unless `pathRewrite` (or Vite's `rewrite`) says otherwise, `changeOrigin`
 * and `xfwd` are off unless set (a string target is Vite's shorthand, with `changeOrigin`), and
 * the array form (`[{ context: ['/api'], target }]`) is taken too.
 *
 * A configuration mistake throws here, when the file is loaded, with the option's name; under
 * the Angular CLI (`ng serve`), which would print it as an unhandled exception and then keep
 * running without listening, the message is printed alone and the command ends with exit code 1.
 *
 * Angular passes the file's export to Vite as `server.proxy`; each entry's `configure` replaces
 * its http-proxy instance's `web` and `ws` with the core's proxy, so every route option (hooks,
 * `router`, `mock`, `cors`, JSONP, redirect and cookie rewriting, 502 explanations) is the
 * core's, over one proxy shared by the entries, and the routes line is printed once. The same
 * entries work under the webpack `browser` builder, whose webpack-dev-server hands them to
 * http-proxy-middleware 4 (version 6, Angular 22) or calls `bypass` (version 5, Angular 21; see
 * `webpackDevServerFields`).
 *
 * @example
 * // proxy.conf.mjs, named by angular.json: "serve": { "options": { "proxyConfig": "proxy.conf.mjs" } }
 * import { angularProxy } from '@cors-dev-proxy/angular'
 * export default angularProxy({ '/api': 'http://localhost:3000' }) // /api/users → http://localhost:3000/api/users
 */
export function angularProxy(
  routes: NgServeRoutes | Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): AngularProxyConfig {
  const resolved = resolveNgServeOptions(routes, options)
  // One proxy per `ng serve` server: a server Angular starts again gets a new one.
  let current: ServingProxy | undefined
  const host: EntryHost = { kind: undefined }
  // Where a relative `recordings.dir` goes: the workspace `ng serve` serves, found once.
  const root = angularWorkspaceRoot()

  function serving(): ServingProxy {
    if (current !== undefined) return current
    const relay = createDevServerRelay()
    const proxy = createDevServerProxy(resolved, { isOwnUpgrade: isViteSocket, root })
    proxy.attach(relay)
    const serving = { proxy, relay }
    relay.once('close', () => {
      if (current === serving) current = undefined
    })
    current = serving
    return serving
  }

  function configure(viteProxy: ViteProxyServer): void {
    host.kind = 'vite'
    const { relay } = serving()
    // `bypass` has answered (or handed the request on) before Vite calls `web`.
    viteProxy.web = () => undefined
    viteProxy.ws = ((req: IncomingMessage, socket: Duplex, head: Buffer) => {
      relay.emit('upgrade', req, socket, head)
    }) as ViteProxyServer['ws']
  }

  function bypass(
    req: IncomingMessage,
    res: ServerResponse | undefined,
  ): Promise<string | undefined> | undefined {
    const current = serving()
    const { proxy, relay } = current
    relay.learn(req.socket)
    // Vite calls `bypass` without a response before an upgrade, then `ws`.
    if (res === undefined) return undefined
    const webpackDevServer5 = host.kind === undefined
    if (webpackDevServer5) takeServerUpgrades(req, current)
    dropViteCorsHeaders(res)
    return new Promise((resolve, reject) => {
      // Answered: Vite then calls `web`, which does nothing. webpack-dev-server 5 would call its
      // own proxy, or the next middleware on an answer already sent: it is left waiting, and
      // the promise goes with the request.
      const answered = () => {
        if (!webpackDevServer5) resolve(undefined)
      }
      res.once('close', answered)
      proxy.middleware(req, res, (error) => {
        res.off('close', answered)
        // A string makes Vite hand the request on to `ng serve`'s own middlewares (a `pathFilter`).
        if (error === undefined || error === null) resolve(req.url ?? '/')
        // webpack-dev-server 5 does not catch a rejected `bypass`: the dev server would go down.
        else if (webpackDevServer5) answerFailure(res, error)
        else reject(error)
      })
    })
  }

  const webpack = webpackDevServerFields(serving, host)
  const config: AngularProxyConfig = {}
  const prefixes = resolved.routes.map((route) => route.prefix)
  if (resolved.overlay || resolved.inspector !== undefined) prefixes.unshift(INSPECTOR_PATH)
  for (const prefix of prefixes) {
    const ws = resolved.routes.some((route) => route.prefix === prefix && route.ws)
    // Not frozen: Angular rebuilds the object and may add fields to entries while normalising it.
    config[entryKey(prefix)] = { ws, configure, bypass, ...webpack }
  }
  return config
}
