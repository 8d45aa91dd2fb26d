import type { CorsDevProxyOptions, RouteOptions, Routes } from '@cors-dev-proxy/core'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { WRITTEN_ROUTE } from '@cors-dev-proxy/core/adapter'

/**
 * A route as a file written for `ng serve` holds it: our route options, plus Vite's `rewrite`,
 * which `ng serve`'s `application` builder hands to Vite's proxy as it is.
 */
export interface NgServeRouteOptions extends RouteOptions {
  /** Vite's `rewrite(path)`: the path (with its query) to send; taken as a `pathRewrite` function. */
  rewrite?: (path: string) => string
}

/** One entry of the array form of `proxy.conf` (the webpack builder's): the same entry for each `context`. */
export interface NgServeArrayEntry extends NgServeRouteOptions {
  /** The path prefixes the entry serves. */
  context: string[]
}

/** What `angularProxy` takes as routes: Angular's object form, or its array form. */
export type NgServeRoutes = Record<string, string | NgServeRouteOptions> | readonly NgServeArrayEntry[]

const ARRAY_EXAMPLE = "[{ context: ['/api', '/auth'], target: 'http://localhost:3000' }]"

/**
 * The array form, as Angular's `normalizeProxyConfiguration` reads it: one key per `context`
 * string, each with the entry's other fields. Angular skips an entry without a `context` list
 * silently; here it is refused, naming it, since its requests would otherwise reach nothing.
 */
function fromArrayForm(entries: readonly unknown[]): Routes {
  const routes: Record<string, RouteOptions> = {}
  entries.forEach((entry, index) => {
    const context = (entry as { context?: unknown } | null)?.context
    if (!Array.isArray(context) || context.length === 0 || !context.every((key) => typeof key === 'string')) {
      throw new CorsDevProxyError(
        'INVALID_ROUTES',
        `routes[${index}].context`,
        'must be a list of path prefixes in the array form of proxy.conf',
        ARRAY_EXAMPLE,
      )
    }
    const { context: _keys, ...route } = entry as NgServeArrayEntry
    for (const key of context as string[]) routes[key] = route
  })
  return routes
}

/**
 * One entry in Angular's dialect, written in ours: the path is kept unless `pathRewrite` (or
 * Vite's `rewrite`) says otherwise, and `changeOrigin` and `xfwd` are off unless set here or in
 * the shared options, as http-proxy (under Vite) and http-proxy-middleware (under webpack) have
 * them. A string is Vite's shorthand, `{ target, changeOrigin: true }`. A `mock` route is ours
 * alone (no `ng serve` file has one) and keeps its meaning. The entry as written goes with it
 * (`WRITTEN_ROUTE`): the overlay shows it, and user code gets it, without the defaults filled in.
 */
function fromNgServeEntry(entry: unknown, shared: CorsDevProxyOptions): unknown {
  const xfwd = shared.xfwd ?? false
  if (typeof entry === 'string') return { target: entry, pathRewrite: false, xfwd, [WRITTEN_ROUTE]: entry }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry
  const route: Record<string | symbol, unknown> = { ...entry, [WRITTEN_ROUTE]: entry }
  if (route.mock !== undefined && route.mock !== false) return entry
  // Vite's `rewrite`, unless a `pathRewrite` is there too: the core then names `rewrite`.
  if (typeof route.rewrite === 'function' && route.pathRewrite === undefined) {
    const rewrite = route.rewrite as (path: string) => string
    delete route.rewrite
    route.pathRewrite = function viteRewrite(path: string) {
      return rewrite(path)
    }
  }
  route.pathRewrite ??= false
  route.changeOrigin ??= shared.changeOrigin ?? false
  route.xfwd ??= xfwd
  return route
}

/**
 * The routes of a file written for `ng serve`, in cors-dev-proxy's own terms, so that each entry
 * behaves as `ng serve`'s proxy had it behave: the array form becomes one key per `context`, and
 * each entry keeps the request's path unless its `pathRewrite` says otherwise (see
 * {@link fromNgServeEntry}). Everything else is left to the core's validation, which names any
 * mistake; the caller's objects are not changed.
 *
 * @example
 * ngServeRoutes({ '/api': { target: 'http://localhost:3000' } }, {})
 * // { '/api': { target: 'http://localhost:3000', pathRewrite: false, changeOrigin: false, xfwd: false } }
 */
export function ngServeRoutes(routes: unknown, shared?: CorsDevProxyOptions): Routes {
  // Shared options that are not an object are refused by the core, after this.
  const defaults = typeof shared === 'object' && shared !== null ? shared : {}
  if (Array.isArray(routes)) routes = fromArrayForm(routes)
  // Not an object: the core's validation says what the routes must be.
  if (routes === null || typeof routes !== 'object') return routes as Routes
  const translated: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(routes)) translated[key] = fromNgServeEntry(entry, defaults)
  return translated as Routes
}
