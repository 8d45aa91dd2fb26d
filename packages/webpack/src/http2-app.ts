import { CorsDevProxyError } from '@cors-dev-proxy/core'
import type { DevServerLike } from './dev-server-types.js'

/** The server type of webpack-dev-server's options, written as a string or normalized to `{ type }`. */
function serverType(devServer: DevServerLike): unknown {
  const server = devServer.options.server
  return typeof server === 'object' && server !== null ? (server as { type?: unknown }).type : server
}

/**
 * Refuses to start `server: 'http2'` on an Express app, webpack-dev-server's default. Express
 * replaces each request's prototype with one built on `http.IncomingMessage`, whose stream
 * methods fail on an HTTP/2 request: the first one a browser sends kills the dev server with
 * "Cannot read properties of undefined (reading 'readable')" (HTTP/1.1 over the same TLS port
 * works, which hides the cause); connect serves both. A warning was lost before that crash, so
 * this throws from `setupMiddlewares`: webpack-dev-server 5 and 6 then reject `start()` with the
 * message, before anything listens. Express apps are told apart by their `settings`.
 *
 * @example
 * assertAppServesHttp2(devServer) // throws CONFLICTING_OPTIONS for server: 'http2' without `app`
 */
export function assertAppServesHttp2(devServer: DevServerLike): void {
  const { app } = devServer
  if (serverType(devServer) !== 'http2' || typeof app !== 'function' || !('settings' in app)) return
  throw new CorsDevProxyError(
    'CONFLICTING_OPTIONS',
    'devServer.app',
    "is Express (webpack-dev-server's default), which cannot serve server: 'http2': the first HTTP/2 " +
      'request would crash the dev server. Use connect, the app webpack-dev-server documents for HTTP/2 (npm i -D connect; in an ESM ' +
      "config: import connect from 'connect', then app: () => connect()).",
    "{ devServer: { server: 'http2', app: () => require('connect')(), ...corsDevProxy(routes) } }",
  )
}
