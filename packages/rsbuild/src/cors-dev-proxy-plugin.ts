import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import {
  createDevServerProxy,
  type DevServerProxy,
  type ResolvedCorsDevProxyOptions,
  resolveOptions,
  serveBeforeApp,
  splitConfig,
} from '@cors-dev-proxy/core/adapter'
import type { RsbuildPlugin, RsbuildPluginAPI, RsbuildPreviewServer } from '@rsbuild/core'
import { type ConnectLayer, rsbuildChecksBefore } from './checks-before-proxy.js'
import { findProxyConflicts } from './proxy-conflicts.js'
import { rsbuildLogSink } from './rsbuild-log-sink.js'
import { allowedHostsOf, isHostAllowed, isRsbuildHmrUpgrade } from './rsbuild-sockets.js'

/** Where the dev server serves the overlay's client. */
const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'

/** Warnings for what shadows the routes: a `server.proxy` entry, Rsbuild's own HMR socket. */
function warnShadowed(
  proxy: DevServerProxy,
  prefixes: readonly string[],
  serverProxy: unknown,
  hmrPath: string | undefined,
): void {
  for (const { filter, prefix } of findProxyConflicts(prefixes, serverProxy)) {
    proxy.logger.warn(
      `server.proxy '${filter}' and the cors-dev-proxy route '${prefix}' claim the same requests: ` +
        `cors-dev-proxy answers them first, so server.proxy '${filter}' never sees them. Remove one of the two.`,
    )
  }
  for (const route of proxy.routes) {
    if (route.ws && route.prefix === hmrPath) {
      proxy.logger.warn(
        `WebSocket upgrades of the ws route '${route.prefix}' go to Rsbuild's own HMR socket, not to the ` +
          "route's target: move the route, or move Rsbuild's socket with dev: { client: { path: '/__hmr' } }.",
      )
    }
  }
}

/**
 * Mounts the proxy in one Rsbuild server (dev or preview): before the rest of Rsbuild, after its
 * host check; a server without an HTTP server of its own goes to `detached`, closed with the dev
 * server.
 */
function installProxy(
  api: RsbuildPluginAPI,
  server: RsbuildPreviewServer,
  kind: 'dev' | 'preview',
  resolved: ResolvedCorsDevProxyOptions,
  detached: Set<DevServerProxy>,
): void {
  const config = api.getNormalizedConfig()
  const httpServer = server.httpServer ?? undefined
  // Only the dev server has an HMR socket; `rsbuild preview` has none to leave alone.
  const hmrPath = kind === 'dev' ? config.dev.client.path : undefined
  const allowedHosts = allowedHostsOf(config.server)
  const proxy = createDevServerProxy(resolved, {
    sink: rsbuildLogSink(api.logger),
    server: httpServer,
    isOwnUpgrade: (req) => isRsbuildHmrUpgrade(req, hmrPath),
    // Upgrades skip the middlewares and Rsbuild's host check with them: the same rule, applied here.
    isAllowedUpgrade: allowedHosts && ((req) => isHostAllowed(req.headers.host, allowedHosts)),
    root: api.context.rootPath,
  })
  warnShadowed(
    proxy,
    resolved.routes.map((route) => route.prefix),
    config.server.proxy,
    hmrPath,
  )
  const { middlewares } = server
  const stack = (middlewares as unknown as { stack: ConnectLayer[] }).stack
  const listed = serveBeforeApp(httpServer, middlewares, {
    middleware: proxy.middleware,
    claims: proxy.claims,
    plan: (own) => rsbuildChecksBefore(stack, own, allowedHosts !== undefined),
  })
  middlewares.use(listed)
  if (httpServer) return
  detached.add(proxy)
  if (proxy.routes.some((route) => route.ws)) {
    proxy.logger.warn(
      'Rsbuild runs in middleware mode, without a server of its own: forward WebSocket upgrades of ws routes ' +
        "from your server with @cors-dev-proxy/core's createCorsDevProxy().upgrade().",
    )
  }
}

/**
 * The Rsbuild plugin (Rsbuild 2): proxies the given path prefixes to their targets, in
 * `rsbuild dev` and `rsbuild preview`, over HTTP/1.1 and, with `server.https`, HTTP/2. Routes and
 * options are those of `createCorsDevProxy` (or one `{ routes, ...options }` object, as
 * `cors-dev-proxy.config.*` exports it); every configuration mistake throws here, where the
 * config is written. Logs go through Rsbuild's logger unless `options.logger` is given.
 *
 * The routes' requests are answered from the HTTP server's `request` listener, after Rsbuild's
 * host check (`server.allowedHosts`) and before the rest of Rsbuild (`server.cors`, which would
 * answer preflights 204, `server.proxy`, compression, assets, fallbacks: see `serveBeforeApp`),
 * unless a middleware of `server.setup` or of another plugin comes first, which keeps them in
 * Rsbuild's stack after it. WebSocket upgrades of `ws` routes are forwarded, after the same host
 * check, unless they are Rsbuild's own HMR socket (`dev.client.path`); other upgrades are left to
 * Rsbuild. A warning names each `server.proxy` entry a route shadows.
 *
 * @example
 * // rsbuild.config.mjs
 * import { defineConfig } from '@rsbuild/core'
 * import { pluginCorsDevProxy } from '@cors-dev-proxy/rsbuild'
 * export default defineConfig({ plugins: [pluginCorsDevProxy({ '/api': 'http://localhost:3000' })] })
 */
export function pluginCorsDevProxy(
  routesOrConfig: Routes | (CorsDevProxyOptions & { routes: Routes }),
  options?: CorsDevProxyOptions,
): RsbuildPlugin {
  const [routes, given] = splitConfig(routesOrConfig, options)
  // Resolved now, so every mistake fails when the config is loaded, not when the server starts.
  const resolved = resolveOptions(routes, given)
  // Proxies of servers without an HTTP server of their own (`server.middlewareMode`).
  const detached = new Set<DevServerProxy>()

  async function closeDetached(): Promise<void> {
    const closing = [...detached].map((proxy) => proxy.close())
    detached.clear()
    await Promise.all(closing)
  }

  return {
    name: 'cors-dev-proxy',
    setup(api) {
      // The overlay's client, first in the head of every page `rsbuild dev` generates; never in
      // `rsbuild build` or `preview`. The dev server answers it (see `DevServerProxy.overlayClient`).
      if (resolved.overlay && api.context.action === 'dev') {
        api.modifyHTMLTags(({ headTags, bodyTags }) => ({
          headTags: [{ tag: 'script', attrs: { type: 'module', src: OVERLAY_CLIENT_PATH } }, ...headTags],
          bodyTags,
        }))
      }
      api.onBeforeStartDevServer(({ server }) => installProxy(api, server, 'dev', resolved, detached))
      api.onBeforeStartPreviewServer(({ server }) => installProxy(api, server, 'preview', resolved, detached))
      api.onCloseDevServer(closeDetached)
    },
  }
}
