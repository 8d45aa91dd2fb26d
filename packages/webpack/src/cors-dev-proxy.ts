import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import {
  createDevServerProxy,
  resolveOptions,
  serveBeforeApp,
  splitConfig,
} from '@cors-dev-proxy/core/adapter'
import { checksBeforeProxy } from './checks-before-proxy.js'
import { devServerLogSink } from './dev-server-log-sink.js'
import type { DevServerLike, DevServerMiddleware, NamedMiddleware } from './dev-server-types.js'
import { hmrPath, hostIsAllowed, isHmrUpgrade, wsRoutesShadowedByHmr } from './hmr-socket.js'
import { rememberHostVerdicts } from './host-verdicts.js'
import { assertAppServesHttp2 } from './http2-app.js'
import { insertAfterSecurityChecks } from './insert-middleware.js'
import { addOverlayEntry } from './overlay-entry.js'
import { findProxyConflicts, type ProxyConflict } from './proxy-conflicts.js'
import { createSetupCheck } from './setup-check.js'

/** The options of `createCorsDevProxy`, plus your own `setupMiddlewares` and `onListening` to compose with. */
export interface WebpackCorsDevProxyOptions extends CorsDevProxyOptions {
  /**
   * Your own `setupMiddlewares`. Pass it here instead of next to the spread: a
   * `setupMiddlewares` key written after `...corsDevProxy()` replaces cors-dev-proxy's (nothing
   * is proxied, and an error says so once the dev server listens). It is called with the list
   * that already holds cors-dev-proxy's middleware (`name: 'cors-dev-proxy'`).
   * Declared as a method so a function typed with webpack-dev-server's own `Middleware` and
   * `Server` types fits too.
   * @default none
   */
  setupMiddlewares?(middlewares: DevServerMiddleware[], devServer: DevServerLike): DevServerMiddleware[]
  /**
   * Your own `onListening`, called after cors-dev-proxy's. Pass it here: `...corsDevProxy()`
   * brings an `onListening` that replaces one written before the spread, and one written after
   * the spread replaces cors-dev-proxy's check for a replaced `setupMiddlewares`.
   * @default none
   */
  onListening?(devServer: DevServerLike): void
}

/** What `corsDevProxy()` returns: spread it into `devServer`. */
export interface WebpackDevServerSetup {
  /** Installs the proxy middleware and the WebSocket upgrade listener. */
  setupMiddlewares<M>(middlewares: M[], devServer: DevServerLike): M[]
  /**
   * Once the dev server listens: logs an error when `setupMiddlewares` above never ran (a key
   * written after the spread replaced it), then calls your `onListening`, if any.
   */
  onListening(devServer: DevServerLike): void
}

/** The start-up warning for a `devServer.proxy` entry a route shadows, worded like the Vite plugin's. */
function describeProxyConflict({ index, key, context, glob, prefix }: ProxyConflict): string {
  const entry = `devServer.proxy[${index}]`
  return (
    `${entry} (${key} '${context}') and the cors-dev-proxy route '${prefix}' ${glob ? 'can ' : ''}claim the same ` +
    `requests: cors-dev-proxy answers them first, so ${entry} never sees them. Remove one of the two.`
  )
}

/**
 * The webpack-dev-server integration (5 and 6, and `@rspack/dev-server` 2, its fork that
 * `rspack serve` runs, with the same options, middleware names and HMR socket): proxies the given
 * path prefixes to their targets. Routes and options are those of `createCorsDevProxy`; a configuration mistake throws
 * here, where the config is written. Logs go through webpack's infrastructure logger unless
 * `options.logger` is given.
 *
 * The middleware runs right after webpack-dev-server's Host and cross-origin checks, before
 * compression (server-sent events arrive one by one), before webpack-dev-middleware (proxied
 * calls never wait for a build) and before the dev server's catch-all OPTIONS answer
 * (preflights reach the route's `cors` policy or the backend). When nothing of the user's comes
 * before it, the routes' requests are served from the server's `request` listener, those two
 * checks first, before Express sees them (see `serveBeforeApp`). Works with `server: 'http'`,
 * `'https'` and `'http2'` (with `app: () => connect()`, which webpack-dev-server documents
 * for HTTP/2: on its default Express the start fails, see `assertAppServesHttp2`; Rspack's dev
 * server runs on connect by default), from CommonJS (`require`) and ESM configs.
 *
 * Returns `setupMiddlewares`, which installs the proxy, and `onListening`, which logs an error
 * when a `setupMiddlewares` written after the spread kept the first from running. Your own
 * `setupMiddlewares` and `onListening` go in `options`. At start-up a warning names every
 * `devServer.proxy` entry a route shadows (see `findProxyConflicts`).
 *
 * @example
 * // webpack.config.js
 * const { corsDevProxy } = require('@cors-dev-proxy/webpack')
 * module.exports = { devServer: { ...corsDevProxy({ '/api': 'http://localhost:3000' }) } }
 */
export function corsDevProxy(
  routesOrConfig: Routes | (WebpackCorsDevProxyOptions & { routes: Routes }),
  options?: WebpackCorsDevProxyOptions,
): WebpackDevServerSetup {
  const [routes, given = {}] = splitConfig(routesOrConfig, options)
  const { setupMiddlewares: userSetup, onListening: userOnListening, ...proxyOptions } = given
  // Resolved now, so every mistake fails when the config is loaded, not when the server starts.
  const resolved = resolveOptions(routes, proxyOptions)
  const prefixes = resolved.routes.map((route) => route.prefix)
  const setupCheck = createSetupCheck(resolved)

  return {
    setupMiddlewares<M>(middlewares: M[], devServer: DevServerLike): M[] {
      // Before the proxy exists, so a refused start leaves no listener or pool behind.
      assertAppServesHttp2(devServer)
      setupCheck.installed(devServer)
      rememberHostVerdicts(devServer)
      const { server } = devServer
      const proxy = createDevServerProxy(resolved, {
        sink: devServerLogSink(devServer),
        server,
        isOwnUpgrade: (req) => isHmrUpgrade(devServer, req),
        isAllowedUpgrade: (req) => hostIsAllowed(devServer, req.headers),
        // webpack's `context` (a MultiCompiler has none of its own: the working directory then).
        root: (devServer.compiler as { context?: string } | undefined)?.context,
      })
      const { logger } = proxy
      if (proxy.overlayClient !== undefined) addOverlayEntry(devServer.compiler, proxy.overlayClient.source)
      for (const prefix of wsRoutesShadowedByHmr(proxy.routes, devServer)) {
        logger.warn(
          `WebSocket upgrades of the ws route '${prefix}' go to webpack-dev-server's own socket (HMR, path ` +
            `'${hmrPath(devServer)}'), not to the route's target: move the route, or move the dev server's socket ` +
            "with webSocketServer: { type: 'ws', options: { path: '/__wds' } }.",
        )
      }
      for (const conflict of findProxyConflicts(prefixes, devServer.options.proxy)) {
        logger.warn(describeProxyConflict(conflict))
      }
      if (!server) {
        logger.warn(
          'webpack-dev-server created no server before setupMiddlewares: WebSocket routes are not forwarded.',
        )
      }

      const middleware = serveBeforeApp(server, devServer.app, {
        middleware: proxy.middleware,
        claims: proxy.claims,
        plan: checksBeforeProxy(devServer.app, middlewares),
      })
      const entry: NamedMiddleware = { name: 'cors-dev-proxy', middleware }
      const installed = insertAfterSecurityChecks(middlewares, entry as M)
      if (!userSetup) return installed
      return userSetup(installed as DevServerMiddleware[], devServer) as M[]
    },
    onListening(devServer: DevServerLike): void {
      setupCheck.verify(devServer)
      userOnListening?.(devServer)
    },
  }
}
