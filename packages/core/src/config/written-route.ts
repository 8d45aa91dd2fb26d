import { isPlainObject } from './option-path.js'

/**
 * The key under which a route translated from another tool's terms carries the route as its
 * user wrote it (`@cors-dev-proxy/angular` fills in `ng serve`'s defaults, `pathRewrite: false`
 * and the like). A symbol: `Object.keys` never lists it, so the unknown-option check never sees it.
 */
export const WRITTEN_ROUTE: unique symbol = Symbol.for('cors-dev-proxy.writtenRoute')

/**
 * The route as its user wrote it, for what shows it back or hands it to user code (`route.source`:
 * the overlay's advice, a `pathRewrite` function's and a `router`'s `options`): the one under
 * {@link WRITTEN_ROUTE} when an adapter translated the route (a string becomes `{ target }`), else
 * `options` itself.
 *
 * @example
 * writtenRoute({ target: 'http://h', pathRewrite: false, [WRITTEN_ROUTE]: 'http://h' }) // { target: 'http://h' }
 */
export function writtenRoute(options: Record<string, unknown>): Record<string, unknown> {
  const written = (options as { [WRITTEN_ROUTE]?: unknown })[WRITTEN_ROUTE]
  if (typeof written === 'string') return { target: written }
  return isPlainObject(written) ? written : options
}
