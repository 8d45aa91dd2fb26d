import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { prefixMatches, type ResolvedRoute } from '@cors-dev-proxy/core/adapter'
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
export function hostIsAllowed(devServer: DevServerLike, headers: IncomingHttpHeaders): boolean {
  const check = (devServer as { isValidHost?: (headers: IncomingHttpHeaders, name: string) => boolean })
    .isValidHost
  return typeof check === 'function' ? check.call(devServer, headers, 'host') : true
}

/**
 * Whether an upgrade is for webpack-dev-server's own socket (HMR), which the proxy leaves
 * alone: its path is compared raw with the query removed, as `ws` compares it, and paths below
 * it count too, since SockJS (`webSocketServer: 'sockjs'`) opens
 * `/ws/<server>/<session>/websocket`.
 *
 * @example
 * isHmrUpgrade(devServer, req) // true for GET /ws
 */
export function isHmrUpgrade(devServer: DevServerLike, req: IncomingMessage): boolean {
  const hmr = hmrPath(devServer)
  return hmr !== undefined && prefixMatches(hmr, (req.url ?? '').split('?')[0] as string)
}
