/*
 * The routes line's notes for the options whose note needs more than a comparison with the
 * default. Each is referenced from its option's entry (`startup`), and the routes line
 * (log/describe-routes.ts) reads them from the table in the table's order.
 */
import { JSONP_DEFAULTS } from './defaults.js'
import type { ResolvedRouteParts } from './resolved-route-parts.js'

/**
 * `name: value` when a forwarding route's value of the simple option `name` differs from
 * `initial`; a mock route has none.
 *
 * @example
 * forwardNote(route, 'xfwd', false, true) // 'xfwd: false'
 */
export function forwardNote(
  route: ResolvedRouteParts,
  name: string,
  value: unknown,
  initial: unknown,
): string | undefined {
  if (route.kind !== 'forward' || value === initial) return undefined
  return `${name}: ${typeof value === 'boolean' ? value : JSON.stringify(value)}`
}

/**
 * `pathRewrite` as the user wrote it, or `undefined` for the default (prefix removed).
 *
 * @example
 * describePathRewrite(route) // 'pathRewrite: false'
 */
export function describePathRewrite(route: ResolvedRouteParts): string | undefined {
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
export function describeWs(route: ResolvedRouteParts): string | undefined {
  if (route.kind === 'forward' && route.websocketTarget) return route.ws ? undefined : 'ws: false'
  return route.ws ? 'ws' : undefined
}

/**
 * `jsonp`, with its parameter when it is not the default one.
 *
 * @example
 * describeJsonp(route) // 'jsonp: cb'
 */
export function describeJsonp(route: ResolvedRouteParts): string | undefined {
  if (!route.jsonp) return undefined
  return route.jsonp.param === JSONP_DEFAULTS.param ? 'jsonp' : `jsonp: ${route.jsonp.param}`
}
