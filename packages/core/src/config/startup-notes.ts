/*
 * The routes line's notes for the options whose note needs more than a comparison with the
 * default. Each is referenced from its option's entry (`startup`), and the routes line
 * (log/describe-routes.ts) reads them from the table in the table's order.
 */
import { JSONP_DEFAULTS } from './defaults.js'
import type { ResolvedRoute } from './resolved-route.js'

/**
 * `name: value` when a forwarding route's value differs from `initial`; a mock route has none.
 *
 * @example
 * forwardNote(route, 'xfwd', true) // 'xfwd: false'
 */
export function forwardNote(
  route: ResolvedRoute,
  name: 'changeOrigin' | 'xfwd' | 'secure' | 'cookieDomainRewrite' | 'cookiePathRewrite',
  initial: unknown,
): string | undefined {
  if (route.kind !== 'forward' || route[name] === initial) return undefined
  const value = route[name]
  return `${name}: ${typeof value === 'boolean' ? value : JSON.stringify(value)}`
}

/**
 * `pathRewrite` as the user wrote it, or `undefined` for the default (prefix removed).
 *
 * @example
 * describePathRewrite(route) // 'pathRewrite: false'
 */
export function describePathRewrite(route: ResolvedRoute): string | undefined {
  const rewrite = route.pathRewrite
  if (rewrite === undefined) return undefined
  if (rewrite === false) return 'pathRewrite: false'
  if (typeof rewrite === 'function') return 'pathRewrite: function'
  return `pathRewrite: ${JSON.stringify(rewrite)}`
}

/**
 * `ws` on a route that forwards WebSockets; a ws:/wss: target says it already, so there only
 * `ws: false` is worth a note.
 *
 * @example
 * describeWs(route) // 'ws'
 */
export function describeWs(route: ResolvedRoute): string | undefined {
  if (route.kind === 'forward' && route.websocketTarget) return route.ws ? undefined : 'ws: false'
  return route.ws ? 'ws' : undefined
}

/**
 * `jsonp`, with its parameter when it is not the default one.
 *
 * @example
 * describeJsonp(route) // 'jsonp: cb'
 */
export function describeJsonp(route: ResolvedRoute): string | undefined {
  if (!route.jsonp) return undefined
  return route.jsonp.param === JSONP_DEFAULTS.param ? 'jsonp' : `jsonp: ${route.jsonp.param}`
}
