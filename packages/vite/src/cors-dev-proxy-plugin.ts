import type { CorsDevProxyConfig, CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import {
  type AppMiddleware,
  createDevServerProxy,
  type DevServerProxy,
  isHostAllowed,
  type ResolvedCorsDevProxyOptions,
  resolveOptions,
  serveBeforeApp,
} from '@cors-dev-proxy/core/adapter'
import type { Plugin, PreviewServer, ViteDevServer } from 'vite'
import {
  type ConnectLayer,
  exemptProxiedRoutesFromViteCors,
  moveAfterViteHostCheck,
  viteChecksBefore,
} from './connect-stack.js'
import { frameworkOf, serverFetchAlternative, type ViteFramework } from './detect-framework.js'
import {
  attachCorsDevProxy,
  checkAttached,
  hmrServerOf,
  middlewareHmrPath,
  registerDetached,
} from './middleware-mode.js'
import { overlayHooks } from './overlay-injection.js'
import { findProxyConflicts } from './proxy-conflicts.js'
import { viteLogSink } from './vite-log-sink.js'
import { isViteHmrUpgrade, viteHmrPath } from './vite-sockets.js'

type Server = ViteDevServer | PreviewServer

type Kind = 'server' | 'preview'

/** What the plugin's hooks share: the routes resolved once, and what the hooks learn of Vite. */
interface PluginState {
  readonly resolved: ResolvedCorsDevProxyOptions
  readonly prefixes: readonly string[]
  /** Servers without an HTTP server of their own (middleware mode), closed with the plugin container. */
  readonly detached: Set<DevServerProxy>
  framework: ViteFramework | undefined
}

/** The proxy of one Vite server (dev or preview), with a warning per `proxy` entry a route shadows. */
function createViteProxy(server: Server, kind: Kind, state: PluginState): DevServerProxy {
  const { httpServer } = server
  const { proxy: viteProxy, https, allowedHosts } = server.config[kind]
  // Only the dev server has an HMR socket; `vite preview` has none to leave alone.
  const hmrPath =
    kind !== 'server' ? undefined : httpServer ? viteHmrPath(server.config) : middlewareHmrPath(server.config)
  const proxy = createDevServerProxy(state.resolved, {
    sink: viteLogSink(server.config.logger),
    server: httpServer ?? undefined,
    isOwnUpgrade: (req) => isViteHmrUpgrade(req, hmrPath),
    // Upgrades skip the middleware chain and Vite's host check with it: the same rule, applied
    // when Vite applies it to HTTP requests (not over HTTPS, where a rebinding cannot succeed).
    isAllowedUpgrade: https ? undefined : (req) => isHostAllowed(req.headers.host, allowedHosts),
    serverFetchAlternative: serverFetchAlternative(state.framework),
    root: server.config.root,
  })
  for (const { context, prefix } of findProxyConflicts(state.prefixes, viteProxy)) {
    proxy.logger.warn(
      `${kind}.proxy['${context}'] and the cors-dev-proxy route '${prefix}' claim the same requests: ` +
        `cors-dev-proxy answers them first, so ${kind}.proxy['${context}'] never sees them. Remove one of the two.`,
    )
  }
  return proxy
}

/**
 * Mounts the proxy in a Vite server: its routes' requests before connect and Vite's other
 * middlewares, after Vite's checks; returns the hook that runs once Vite added its own.
 */
function installProxy(server: Server, kind: Kind, state: PluginState): () => void {
  const { httpServer } = server
  const proxy = createViteProxy(server, kind, state)
  const stack = server.middlewares.stack as unknown as ConnectLayer[]
  // The routes' requests skip connect and Vite's other middlewares, after Vite's checks.
  const listed = serveBeforeApp(httpServer ?? undefined, server.middlewares, {
    middleware: proxy.middleware,
    claims: proxy.claims,
    plan: (own) => viteChecksBefore(stack, own) as AppMiddleware[] | undefined,
  })
  // In middleware mode, the first request says how to wire WebSockets if nobody did.
  const mounted = httpServer ? listed : checkAttached(listed, proxy)
  server.middlewares.use(mounted)

  if (!httpServer) {
    state.detached.add(proxy)
    registerDetached(server, proxy)
    // Vite's HMR on the user's server (`server.hmr.server`) tells us which server that is.
    const ownServer = hmrServerOf(server.config.server.hmr)
    if (ownServer !== undefined) attachCorsDevProxy(server as ViteDevServer, ownServer)
  } else if (server.config[kind].https && server.config[kind].proxy && !('updateSettings' in httpServer)) {
    // Vite 6 serves HTTPS/1.1 only when `proxy` is set (Vite 7 and 8 always offer HTTP/2 over
    // TLS), which takes HTTP/2 away from these routes too. Only Http2SecureServer has updateSettings.
    proxy.logger.warn(
      `Vite serves HTTPS without HTTP/2 while ${kind}.proxy is set (Vite 6): move its routes into corsDevProxy() ` +
        `and remove ${kind}.proxy to get HTTP/2.`,
    )
  }

  // Runs after Vite has added its own middlewares (Vite 6 adds `cors` only after the plugins').
  return () => {
    exemptProxiedRoutesFromViteCors(stack, proxy.claims)
    moveAfterViteHostCheck(stack, mounted)
  }
}

/**
 * The Vite plugin: proxies the given path prefixes to their targets, in `vite` (dev) and
 * `vite preview`, over HTTP/1.1 and, with `server.https`, HTTP/2. Routes and options are those
 * of `createCorsDevProxy` (or one `{ routes, ...options }` object, as `cors-dev-proxy.config.*`
 * exports it); every configuration mistake, nested options included, throws here,
 * where the config is written. Logs go through Vite's logger unless `options.logger` is given.
 *
 * What it changes in Vite, and only for requests its routes claim: Vite's `cors` middleware
 * steps aside (so preflights reach the route's `cors` policy or the backend, instead of Vite's
 * 204), and WebSocket upgrades of `ws` routes are forwarded unless they are Vite's own HMR
 * socket (its subprotocol on its HMR path), after Vite's `allowedHosts` check. Their requests
 * are answered from the HTTP server's `request` listener, after Vite's own checks (a `#` in the
 * URL, `allowedHosts`) and before connect and the rest of Vite (see `serveBeforeApp`), unless
 * another plugin's middleware comes first.
 *
 * @example
 * // vite.config.ts
 * import { defineConfig } from 'vite'
 * import { corsDevProxy } from '@cors-dev-proxy/vite'
 * export default defineConfig({ plugins: [corsDevProxy({ '/api': 'http://localhost:3000' })] })
 */
export function corsDevProxy(routes: Routes | CorsDevProxyConfig, options?: CorsDevProxyOptions): Plugin {
  const resolved = resolveOptions(routes, options)
  const state: PluginState = {
    resolved,
    prefixes: resolved.routes.map((route) => route.prefix),
    detached: new Set(),
    framework: undefined,
  }
  let serving = false
  const plugin: Plugin = {
    name: 'cors-dev-proxy',
    // First of all plugins (Vite calls them in order): SvelteKit's own `configResolved` lists
    // the plugins that have `transformIndexHtml` and warns about them, and the hook is dropped
    // before it looks, since SvelteKit never runs it (its pages get the client through Vite's).
    configResolved: {
      order: 'pre',
      handler(config) {
        serving = config.command === 'serve' && !config.isProduction
        state.framework = frameworkOf(config.plugins)
        if (state.framework === 'sveltekit') delete plugin.transformIndexHtml
      },
    },
    ...(resolved.overlay ? overlayHooks(() => serving) : {}),
    configureServer(server) {
      return installProxy(server, 'server', state)
    },
    configurePreviewServer(server) {
      return installProxy(server, 'preview', state)
    },
    async closeBundle() {
      const closing = [...state.detached].map((proxy) => proxy.close())
      state.detached.clear()
      await Promise.all(closing)
    },
  }
  return plugin
}
