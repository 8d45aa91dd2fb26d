import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { type ResolvedRoute, refuseNodeOptions } from '@cors-dev-proxy/core/adapter'

/** The Node server that honours what `proxy.ts` cannot, named in every refusal. */
const NEXT_SERVER = 'createNextServer (the custom server)'

/**
 * Throws `CorsDevProxyError` for the first route `proxy.ts` cannot serve, naming the option,
 * what to use instead and an example with the route's own target: a `ws` route (Next runs
 * `proxy.ts` for HTTP requests only and hands it no upgrade), and what only a Node server
 * honours (`on.proxyReq`, `configure`, `agent`: `refuseNodeOptions`). Called by
 * `createNextProxy` when `proxy.ts` is evaluated, and by `withCorsDevProxy` when `next dev`
 * loads its config: Next evaluates `proxy.ts` only at the first request it matches, where a
 * throw is a 500 for every matched request, not a stop at start-up.
 *
 * @example
 * refuseProxyTsOptions(resolveOptions(routes, options).routes)
 */
export function refuseProxyTsOptions(routes: readonly ResolvedRoute[]): void {
  const ws = routes.find((route) => route.ws)
  if (ws !== undefined) {
    const target =
      ws.kind === 'forward' && ws.hasTarget ? ws.target.href.replace(/\/$/, '') : 'http://localhost:3000'
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      `routes['${ws.prefix}'].ws`,
      `is not supported in proxy.ts: Next runs it for HTTP requests only and hands it no WebSocket upgrade; serve WebSocket routes with ${NEXT_SERVER} instead, or keep the route for HTTP requests without ws`,
      `{ '${ws.prefix}': { target: '${target}' } }`,
    )
  }
  refuseNodeOptions(routes, { name: 'proxy.ts', nodeServer: NEXT_SERVER })
}
