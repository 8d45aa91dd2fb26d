import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type CorsDevProxy, matchRoute, prefixMatches, type ResolvedRoute } from '@cors-dev-proxy/core'
import type { DevServerLike } from './dev-server-types.js'

/** webpack-dev-server's default HMR socket path (`webSocketServer.options.path`). */
const DEFAULT_HMR_PATH = '/ws'

/** The path of webpack-dev-server's own WebSocket server, or `undefined` when it has none. */
export function hmrPath(devServer: DevServerLike): string | undefined {
  const config = devServer.options.webSocketServer
  if (config === false || config === undefined || config === null) return undefined
  if (typeof config !== 'object') return DEFAULT_HMR_PATH
  const path = (config as { options?: { path?: unknown } }).options?.path
  return typeof path === 'string' ? path : DEFAULT_HMR_PATH
}

/**
 * The prefixes of `ws` routes whose upgrades all go to webpack-dev-server's own WebSocket server:
 * those at or below its path (a `ws` route on `/ws` with the default set-up). Their HTTP requests
 * are still proxied, their sockets never are, so the adapter warns at start-up rather than let
 * the backend's socket fail silently. A route above that path (`/`) only gives it up.
 *
 * @example
 * wsRoutesShadowedByHmr(resolveOptions({ '/ws': { target, ws: true } }).routes, devServer) // ['/ws']
 */
export function wsRoutesShadowedByHmr(routes: readonly ResolvedRoute[], devServer: DevServerLike): string[] {
  const hmr = hmrPath(devServer)
  if (hmr === undefined) return []
  return routes.filter((route) => route.ws && prefixMatches(hmr, route.prefix)).map((route) => route.prefix)
}

/** webpack-dev-server's Host check (`allowedHosts`), when this version exposes it. */
function hostIsAllowed(devServer: DevServerLike, headers: IncomingHttpHeaders): boolean {
  const check = (devServer as { isValidHost?: (headers: IncomingHttpHeaders, name: string) => boolean })
    .isValidHost
  return typeof check === 'function' ? check.call(devServer, headers, 'host') : true
}

/**
 * The `upgrade` listener for `ws` routes. Upgrades bypass the middleware chain, so this applies
 * webpack-dev-server's Host check itself (a DNS-rebinding page must not reach the backend's
 * sockets through the dev server), and leaves the HMR socket alone: its path is compared raw
 * with the query removed, as `ws` compares it, and paths below it count too, since SockJS
 * (`webSocketServer: 'sockjs'`) opens `/ws/<server>/<session>/websocket`.
 *
 * @example
 * devServer.server.on('upgrade', createUpgradeListener(proxy, devServer))
 */
export function createUpgradeListener(proxy: CorsDevProxy, devServer: DevServerLike) {
  const hmr = hmrPath(devServer)
  return function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? ''
    if (hmr !== undefined && prefixMatches(hmr, url.split('?')[0] as string)) return
    const match = matchRoute(proxy.routes, url)
    if (!match?.route.ws) return
    if (!hostIsAllowed(devServer, req.headers)) {
      socket.end(
        'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nInvalid Host header',
      )
      return
    }
    proxy.upgrade(req, socket, head)
  }
}
