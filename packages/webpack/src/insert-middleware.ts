import type { NamedMiddleware } from './dev-server-types.js'

/**
 * webpack-dev-server's own security checks (Host header against DNS rebinding, `Sec-Fetch-*`
 * against cross-site no-cors loads), under the same names in `@rspack/dev-server` 2. They stay in
 * front of the proxy.
 */
const SECURITY_CHECKS: ReadonlySet<string> = new Set(['host-header-check', 'cross-origin-header-check'])

function nameOf(entry: unknown): string | undefined {
  return typeof entry === 'object' && entry !== null ? (entry as NamedMiddleware).name : undefined
}

/**
 * Inserts the proxy middleware right after webpack-dev-server's security checks, which puts it
 * before everything else it adds:
 * - `compression` (on by default): it buffers a response in zlib until the end, so server-sent
 *   events would reach the browser all at once;
 * - `webpack-dev-middleware` (`@rspack/dev-middleware` in `@rspack/dev-server`): it holds every
 *   GET until a build is done, and an API call has nothing to do with the bundle;
 * - `options-middleware`: it answers every OPTIONS 204, which would swallow the preflights a
 *   route forwards to its backend.
 * Without the checks (a version that does them elsewhere) it goes first. Returns a new array.
 *
 * @example
 * insertAfterSecurityChecks(middlewares, { name: 'cors-dev-proxy', middleware })
 */
export function insertAfterSecurityChecks<M>(middlewares: readonly M[], entry: M): M[] {
  let index = 0
  middlewares.forEach((middleware, position) => {
    const name = nameOf(middleware)
    if (name !== undefined && SECURITY_CHECKS.has(name)) index = position + 1
  })
  return [...middlewares.slice(0, index), entry, ...middlewares.slice(index)]
}
