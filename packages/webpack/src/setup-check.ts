import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import { devServerLogSink } from './dev-server-log-sink.js'
import type { DevServerLike } from './dev-server-types.js'

/** Notices, at each start of a dev server, that cors-dev-proxy's `setupMiddlewares` never ran. */
export interface SetupCheck {
  /** Called by cors-dev-proxy's `setupMiddlewares`: this start of `devServer` installed the proxy. */
  installed(devServer: object): void
  /**
   * Called by cors-dev-proxy's `onListening`, once the dev server listens: logs an error naming
   * the fix when this start did not install the proxy, then forgets the start.
   */
  verify(devServer: DevServerLike): void
}

/**
 * The check behind the start-up error for a replaced `setupMiddlewares`. webpack-dev-server
 * keeps one `setupMiddlewares`, so a key written after `...corsDevProxy()` silently replaces
 * cors-dev-proxy's: nothing is proxied and every route answers the dev server's 404.
 * webpack-dev-server 5 and 6 call `setupMiddlewares` once per `start()`, before listening, and
 * `onListening` once per `start()`, after: so `installed` marks the dev server and `verify`
 * takes the mark off, which also holds for a server stopped and started again, and for a
 * `setupMiddlewares` of the user's that calls cors-dev-proxy's itself. The error goes through
 * the user's `logger`, else webpack's infrastructure logger, at every level but `silent`.
 *
 * @example
 * const check = createSetupCheck(resolved)
 * // setupMiddlewares(middlewares, devServer) { check.installed(devServer); ... }
 * // onListening(devServer) { check.verify(devServer) }
 */
export function createSetupCheck(resolved: ResolvedCorsDevProxyOptions): SetupCheck {
  const started = new WeakSet<object>()
  const prefixes = resolved.routes.map((route) => `'${route.prefix}'`).join(', ')
  const message =
    '[cors-dev-proxy] nothing is proxied: a setupMiddlewares written after ...corsDevProxy() in devServer ' +
    `replaced cors-dev-proxy's, so requests to ${prefixes} get the dev server's own answer (a 404). Pass yours ` +
    'to cors-dev-proxy instead, which calls it with the list that holds the proxy: ' +
    'devServer: { ...corsDevProxy(routes, { setupMiddlewares }) }.'

  return Object.freeze({
    installed(devServer: object): void {
      started.add(devServer)
    },
    verify(devServer: DevServerLike): void {
      if (started.delete(devServer) || resolved.log === 'silent') return
      const sink = resolved.logger ?? devServerLogSink(devServer) ?? console
      sink.error(message)
    },
  })
}
