import {
  type CorsDevProxyConfig,
  CorsDevProxyError,
  type CorsDevProxyOptions,
  type FetchHandler,
  type Routes,
} from '@cors-dev-proxy/core'
import { createFetchHandlerFor, type WebSocketCarrier } from '@cors-dev-proxy/core/adapter'

/**
 * What the overlay says of a failed WebSocket under proxy.ts: Next hands it no upgrade, so a
 * `ws` route goes to the custom server (`ws: true` in proxy.ts is refused when it loads).
 */
const NO_WEBSOCKETS: WebSocketCarrier = Object.freeze({
  none: Object.freeze({
    why: "Next's proxy.ts never sees a WebSocket upgrade; serve the route from the custom server (createNextServer in server.mjs), with `ws: true`",
    where: "add the route to createNextServer's routes in server.mjs (proxy.ts takes no WebSocket)",
  }),
})

/** The handler `proxy.ts` exports: a `Response` for a route's path, `undefined` for Next's own. */
export interface NextProxyHandler {
  (request: Request): Promise<Response | undefined>
  /** The fetch handler underneath: its resolved routes, and `close`. */
  readonly handler: FetchHandler
}

/**
 * A relative `Location` made absolute on the request's URL. Next's proxy.ts adapter parses a
 * redirect's `Location` without a base (`new NextURL(location)`), so a relative one fails the
 * request with a 500 "Invalid URL"; the engine keeps a target's relative `Location` relative,
 * under the route's prefix. Next makes it relative again for the browser.
 */
function absoluteLocation(response: Response | undefined, request: Request): Response | undefined {
  const location = response?.headers.get('location')
  if (response === undefined || location === null || location === undefined || URL.canParse(location))
    return response
  try {
    response.headers.set('location', new URL(location, request.url).href)
  } catch {
    // Immutable headers (a Response.redirect) already hold an absolute URL: nothing to do.
  }
  return response
}

/**
 * Creates the handler for Next 16's `proxy.ts` (or Next 15's `middleware.ts` with
 * `runtime: 'nodejs'`): the routes answered by the engine of `@cors-dev-proxy/core`
 * (`createFetchHandler`), and every other path left to Next (`undefined`, which Next reads as
 * "carry on"). Validated once, when `proxy.ts` is loaded: a mistake throws `CorsDevProxyError`
 * naming the option. Event streams stay event by event: Next gzips a `proxy.ts` answer but
 * flushes the gzip stream after each chunk it pipes (`pipeToNodeResponse`).
 *
 * The overlay's script and the inspector are served under `/__cors-dev-proxy/` when the matcher
 * lists it. WebSocket routes (`ws`) need the Node server itself: use `createNextServer` for those.
 * Next hands proxy.ts at most `experimental.proxyClientMaxBodySize` of a request body (10 MB).
 *
 * @example
 * // proxy.ts
 * import { createNextProxy } from '@cors-dev-proxy/next'
 * export const proxy = createNextProxy({ '/api': 'http://localhost:8080' })
 * export const config = { matcher: ['/api/:path*', '/__cors-dev-proxy/:path*'] }
 */
export function createNextProxy(
  routes: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): NextProxyHandler {
  const handler = createFetchHandlerFor(routes, options, { webSockets: NO_WEBSOCKETS })
  // The Fetch handler carries a ws route where the runtime hands it the upgrade (Bun, Deno, Hono);
  // Next runs proxy.ts for HTTP requests only, so such a route would never answer there.
  const ws = handler.routes.find((route) => route.ws)
  if (ws !== undefined) {
    void handler.close()
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      `routes['${ws.prefix}'].ws`,
      'is not supported in proxy.ts: Next runs it for HTTP requests only and hands it no WebSocket upgrade; serve WebSocket routes with createNextServer (the custom server) instead',
      `{ '${ws.prefix}': { target: '${ws.kind === 'forward' ? ws.target.origin : 'http://localhost:3000'}' } }`,
    )
  }
  const corsDevProxy = async (request: Request): Promise<Response | undefined> =>
    absoluteLocation(await handler(request), request)
  return Object.assign(corsDevProxy, { handler })
}
