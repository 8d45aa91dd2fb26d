import type { CorsDevProxyConfig, CorsDevProxyOptions, FetchHandler, Routes } from '@cors-dev-proxy/core'
import {
  createFetchHandlerFor,
  matchRoute,
  resolveOptions,
  type WebSocketCarrier,
} from '@cors-dev-proxy/core/adapter'
import { acceptingDecodable, decodedForNext } from './decode-for-next.js'
import { refuseProxyTsOptions } from './proxy-ts-refusals.js'

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
function absoluteLocation(response: Response, request: Request): Response {
  const location = response.headers.get('location')
  if (location === null || URL.canParse(location)) return response
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
 * naming the option, and so are what `proxy.ts` cannot serve: `ws` routes, `on.proxyReq`,
 * `configure` and `agent` (the custom server, `createNextServer`, serves them). Next drops a
 * `proxy.ts` answer's `Content-Encoding` and compresses its body again, so a compressed answer
 * (the target's, a mock's, a replayed one) is handed over decoded, as a stream, and the target
 * is asked only for codings this Node decodes. Event streams stay event by event: Next gzips a
 * `proxy.ts` answer but flushes the gzip stream after each chunk it pipes (`pipeToNodeResponse`).
 *
 * The overlay's script and the inspector are served under `/__cors-dev-proxy/` when the matcher
 * lists it.
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
  // Refused in proxy.ts's words (and the custom server named) before the Fetch handler would in its own.
  refuseProxyTsOptions(resolveOptions(routes, options).routes)
  const handler = createFetchHandlerFor(routes, options, { webSockets: NO_WEBSOCKETS })
  const corsDevProxy = async (request: Request): Promise<Response | undefined> => {
    // Only a route's request is rebuilt; Next's own pass through untouched.
    const { pathname, search } = new URL(request.url)
    const routed =
      matchRoute(handler.routes, pathname + search) === undefined ? request : acceptingDecodable(request)
    const response = await handler(routed)
    return response === undefined ? undefined : absoluteLocation(decodedForNext(response), request)
  }
  return Object.assign(corsDevProxy, { handler })
}
