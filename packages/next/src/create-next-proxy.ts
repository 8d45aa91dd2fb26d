import {
  type CorsDevProxyConfig,
  type CorsDevProxyOptions,
  createFetchHandler,
  type FetchHandler,
  type Routes,
} from '@cors-dev-proxy/core'

/** The handler `proxy.ts` exports: a `Response` for a route's path, `undefined` for Next's own. */
export interface NextProxyHandler {
  (request: Request): Promise<Response | undefined>
  /** The fetch handler underneath: its resolved routes, and `close`. */
  readonly handler: FetchHandler
}

/**
 * Creates the handler for Next 16's `proxy.ts` (or Next 15's `middleware.ts` with
 * `runtime: 'nodejs'`): the routes answered by the engine of `@cors-dev-proxy/core`
 * (`createFetchHandler`), and every other path left to Next (`undefined`, which Next reads as
 * "carry on"). Validated once, when `proxy.ts` is loaded: a mistake throws `CorsDevProxyError`
 * naming the option. Event streams stay event by event: Next gzips a `proxy.ts` answer but
 * flushes the gzip stream after each chunk it pipes (`pipeToNodeResponse`).
 *
 * WebSocket routes (`ws`) and the overlay's endpoints need the Node server itself: use
 * `createNextServer` for those.
 *
 * @example
 * // proxy.ts
 * import { createNextProxy } from '@cors-dev-proxy/next'
 * export const proxy = createNextProxy({ '/api': 'http://localhost:8080' })
 * export const config = { matcher: ['/api/:path*'] }
 */
export function createNextProxy(
  routes: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): NextProxyHandler {
  const handler = createFetchHandler(routes, options)
  const corsDevProxy = (request: Request): Promise<Response | undefined> => handler(request)
  return Object.assign(corsDevProxy, { handler })
}
