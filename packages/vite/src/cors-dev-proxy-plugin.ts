import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import {
  type CorsDevProxy,
  type CorsDevProxyOptions,
  createCorsDevProxy,
  createLoggedMiddleware,
  createLogger,
  describeRoutes,
  matchRoute,
  type Routes,
  refuseConnectOn,
  resolveOptions,
} from '@cors-dev-proxy/core'
import type { Plugin, PreviewServer, ViteDevServer } from 'vite'
import {
  type ConnectLayer,
  exemptProxiedRoutesFromViteCors,
  moveAfterViteHostCheck,
} from './connect-stack.js'
import { findProxyConflicts } from './proxy-conflicts.js'
import { viteLogSink } from './vite-log-sink.js'

/** `Sec-WebSocket-Protocol` values of Vite's own client: its HMR socket and its reconnect ping. */
const VITE_SOCKET_PROTOCOLS: ReadonlySet<string> = new Set(['vite-hmr', 'vite-ping'])

type Server = ViteDevServer | PreviewServer

/**
 * The Vite plugin: proxies the given path prefixes to their targets, in `vite` (dev) and
 * `vite preview`, over HTTP/1.1 and, with `server.https`, HTTP/2. Routes and options are those
 * of `createCorsDevProxy`; a configuration mistake throws here, where the config is written.
 * Logs go through Vite's logger unless `options.logger` is given.
 *
 * What it changes in Vite, and only for requests its routes claim: Vite's `cors` middleware
 * steps aside (so preflights reach the route's `cors` policy or the backend, instead of Vite's
 * 204), and WebSocket upgrades are forwarded unless they are Vite's own HMR socket.
 *
 * @example
 * // vite.config.ts
 * import { defineConfig } from 'vite'
 * import { corsDevProxy } from '@cors-dev-proxy/vite'
 * export default defineConfig({ plugins: [corsDevProxy({ '/api': 'http://localhost:3000' })] })
 */
export function corsDevProxy(routes: Routes, options: CorsDevProxyOptions = {}): Plugin {
  const { routes: resolved } = resolveOptions(routes, options)
  const prefixes = resolved.map((route) => route.prefix)
  // Servers without an HTTP server of their own (middleware mode) are closed with the plugin container.
  const detached = new Set<CorsDevProxy>()

  function install(server: Server, kind: 'server' | 'preview'): () => void {
    const sink = options.logger ?? viteLogSink(server.config.logger)
    const logger = createLogger(options.log ?? 'info', sink)
    const proxy = createCorsDevProxy(routes, { ...options, logger: sink })
    const { proxy: viteProxy, https } = server.config[kind]
    for (const { context, prefix } of findProxyConflicts(prefixes, viteProxy)) {
      logger.warn(
        `${kind}.proxy['${context}'] and the cors-dev-proxy route '${prefix}' claim the same requests: ` +
          `cors-dev-proxy answers them first, so ${kind}.proxy['${context}'] never sees them. Remove one of the two.`,
      )
    }
    const middleware = createLoggedMiddleware(proxy, logger)
    server.middlewares.use(middleware)

    const { httpServer } = server
    if (httpServer) {
      httpServer.on('upgrade', createUpgradeListener(proxy))
      // Node resets a CONNECT without a word when nobody listens: say 400 instead (never a tunnel).
      refuseConnectOn(httpServer)
      httpServer.once('close', () => void proxy.close())
      // Vite 6 serves HTTPS/1.1 only when `proxy` is set (Vite 7 and 8 always offer HTTP/2 over
      // TLS), which takes HTTP/2 away from these routes too. Only Http2SecureServer has updateSettings.
      if (https && viteProxy && !('updateSettings' in httpServer)) {
        logger.warn(
          `Vite serves HTTPS without HTTP/2 while ${kind}.proxy is set (Vite 6): move its routes into corsDevProxy() ` +
            `and remove ${kind}.proxy to get HTTP/2.`,
        )
      }
      if (httpServer.listening) logger.info(describeRoutes(proxy.routes, routes))
      else httpServer.once('listening', () => logger.info(describeRoutes(proxy.routes, routes)))
    } else {
      detached.add(proxy)
      logger.info(describeRoutes(proxy.routes, routes))
      if (proxy.routes.some((route) => route.ws)) {
        logger.warn(
          'Vite runs in middleware mode, without a server of its own: forward WebSocket upgrades of ws routes ' +
            "from your server with @cors-dev-proxy/core's createCorsDevProxy().upgrade().",
        )
      }
    }

    // Runs after Vite has added its own middlewares (Vite 6 adds `cors` only after the plugins').
    return () => {
      const stack = server.middlewares.stack as unknown as ConnectLayer[]
      exemptProxiedRoutesFromViteCors(
        stack,
        (req) => req.url !== undefined && matchRoute(proxy.routes, req.url) !== undefined,
      )
      moveAfterViteHostCheck(stack, middleware)
    }
  }

  return {
    name: 'cors-dev-proxy',
    configureServer(server) {
      return install(server, 'server')
    },
    configurePreviewServer(server) {
      return install(server, 'preview')
    },
    async closeBundle() {
      const closing = [...detached].map((proxy) => proxy.close())
      detached.clear()
      await Promise.all(closing)
    },
  }
}

/**
 * Forwards upgrades of `ws` routes. Vite's HMR client always asks for the `vite-hmr` (or
 * `vite-ping`) subprotocol, exactly as Vite's own listener checks it, so those are left to
 * Vite even when a `ws` route covers Vite's HMR path (a route on `/`).
 */
function createUpgradeListener(proxy: CorsDevProxy) {
  return function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const protocol = req.headers['sec-websocket-protocol']
    if (protocol !== undefined && VITE_SOCKET_PROTOCOLS.has(protocol)) return
    proxy.upgrade(req, socket, head)
  }
}
