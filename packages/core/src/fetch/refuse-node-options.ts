import { CorsDevProxyError } from '../config/errors.js'
import type { ResolvedRoute } from '../config/resolved-route.js'

/** A route option the Fetch front end cannot honour, and what to use instead. */
interface Refusal {
  readonly option: string
  readonly problem: string
  readonly example: string
}

/** Where the refused options would run, for the message: the handler's name by default. */
export interface NodeOptionsHost {
  /** What the message says does not support the option, e.g. `'proxy.ts'`. @default 'createFetchHandler' */
  readonly name?: string
  /** The Node server that would honour it, offered as the other way, e.g. `'createNextServer (the custom server)'`. */
  readonly nodeServer?: string
}

/**
 * The route's target as the user would write it in the example fix: its own, so that the
 * example can be pasted over the route as it is (a placeholder only when a `router` alone
 * decides the target).
 */
function targetOf(route: ResolvedRoute): string {
  if (route.kind !== 'forward' || !route.hasTarget) return 'http://localhost:3000'
  return route.target.href.replace(/\/$/, '')
}

/**
 * What a route asks for that only a Node server has: a `ClientRequest` for `on.proxyReq`, an
 * http-proxy instance for `configure`, and a Node `Agent`. (A `ws` route works: its upgrades go
 * through the handler's `webSocket` bridge and the runtime's own upgrade API.)
 */
function refusalOf(route: ResolvedRoute, host: string, orNodeServer: string): Refusal | undefined {
  const at = `routes['${route.prefix}']`
  const target = targetOf(route)
  if (route.source.configure !== undefined) {
    return {
      option: `${at}.configure`,
      problem: `is not supported by ${host}: there is no http-proxy instance to configure; use on.proxyRes and on.error, and headers for request headers${orNodeServer}`,
      example: `{ '${route.prefix}': { target: '${target}', headers: { 'x-token': 'dev' } } }`,
    }
  }
  const proxyReq = route.kind === 'forward' ? route.hooks.proxyReq[0] : undefined
  if (proxyReq !== undefined) {
    return {
      option: proxyReq.name,
      problem: `is not supported by ${host}: no node:http ClientRequest exists there; set request headers with headers, or rewrite the path with pathRewrite or router${orNodeServer}`,
      example: `{ '${route.prefix}': { target: '${target}', headers: { 'x-token': 'dev' } } }`,
    }
  }
  if (route.kind === 'forward' && route.source.agent !== undefined) {
    return {
      option: `${at}.agent`,
      problem: `is not supported by ${host}: a Node Agent has no part in its forwarding; for a self-signed target use secure: false${orNodeServer}`,
      example: `{ '${route.prefix}': { target: '${target}', secure: false } }`,
    }
  }
  return undefined
}

/**
 * Throws `CorsDevProxyError` (`INVALID_OPTION`) for the first route that uses an option only a
 * Node server can honour, naming it and what to use instead; the example fix keeps the route's
 * own target. `host` names the front end in the message (an adapter on the Fetch front end, as
 * Next's `proxy.ts`, names itself and its Node server).
 *
 * @example
 * refuseNodeOptions(resolveOptions(routes, options).routes)
 * refuseNodeOptions(routes, { name: 'proxy.ts', nodeServer: 'createNextServer (the custom server)' })
 */
export function refuseNodeOptions(routes: readonly ResolvedRoute[], host: NodeOptionsHost = {}): void {
  const name = host.name ?? 'createFetchHandler'
  const orNodeServer =
    host.nodeServer === undefined ? '' : `; or keep it and serve the route with ${host.nodeServer}`
  for (const route of routes) {
    const refusal = refusalOf(route, name, orNodeServer)
    if (refusal !== undefined)
      throw new CorsDevProxyError('INVALID_OPTION', refusal.option, refusal.problem, refusal.example)
  }
}
