import { CorsDevProxyError } from '../config/errors.js'
import type { ResolvedRoute } from '../config/resolved-route.js'

/** A route option the Fetch front end cannot honour, and what to use instead. */
interface Refusal {
  readonly option: string
  readonly problem: string
  readonly example: string
}

/**
 * What a route asks for that only a Node server has: a `ClientRequest` for `on.proxyReq`, an
 * http-proxy instance for `configure`, and a Node `Agent`. (A `ws` route works: its upgrades go
 * through the handler's `webSocket` bridge and the runtime's own upgrade API.)
 */
function refusalOf(route: ResolvedRoute): Refusal | undefined {
  const at = `routes['${route.prefix}']`
  if (route.source.configure !== undefined) {
    return {
      option: `${at}.configure`,
      problem:
        'is not supported by createFetchHandler: there is no http-proxy instance to configure; use on.proxyRes and on.error, and headers for request headers',
      example: `{ '${route.prefix}': { target: 'http://localhost:3000', headers: { 'x-token': 'dev' } } }`,
    }
  }
  const proxyReq = route.kind === 'forward' ? route.hooks.proxyReq[0] : undefined
  if (proxyReq !== undefined) {
    return {
      option: proxyReq.name,
      problem:
        'is not supported by createFetchHandler: no node:http ClientRequest exists there; set request headers with headers, or rewrite the path with pathRewrite or router',
      example: `{ '${route.prefix}': { target: 'http://localhost:3000', headers: { 'x-token': 'dev' } } }`,
    }
  }
  if (route.kind === 'forward' && route.source.agent !== undefined) {
    return {
      option: `${at}.agent`,
      problem:
        'is not supported by createFetchHandler: a Node Agent has no part in its forwarding; for a self-signed target use secure: false',
      example: `{ '${route.prefix}': { target: 'https://localhost:3443', secure: false } }`,
    }
  }
  return undefined
}

/**
 * Throws `CorsDevProxyError` (`INVALID_OPTION`) for the first route that uses an option only a
 * Node server can honour, naming it and what to use instead.
 *
 * @example
 * refuseNodeOptions(resolveOptions(routes, options).routes)
 */
export function refuseNodeOptions(routes: readonly ResolvedRoute[]): void {
  for (const route of routes) {
    const refusal = refusalOf(route)
    if (refusal !== undefined)
      throw new CorsDevProxyError('INVALID_OPTION', refusal.option, refusal.problem, refusal.example)
  }
}
