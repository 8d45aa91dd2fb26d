import { DEFAULT_JSONP_PARAM } from '../config/callback-name.js'
import type { RouteConfig, Routes } from '../config/options.js'
import { ROUTE_DEFAULTS } from '../config/resolve-route.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'

/** The user's route object for a normalized prefix (`/api/` was normalized to `/api`). */
function rawRoute(routes: Routes | undefined, prefix: string): RouteConfig | undefined {
  if (!routes) return undefined
  for (const [key, config] of Object.entries(routes)) {
    if (key === prefix || (key.length > 1 && key.replace(/\/+$/, '') === prefix)) return config
  }
  return undefined
}

/** `pathRewrite` as the user wrote it, or `undefined` for the default (prefix removed). */
function describePathRewrite(config: RouteConfig | undefined): string | undefined {
  if (typeof config !== 'object' || config.pathRewrite === undefined) return undefined
  const rewrite = config.pathRewrite
  if (rewrite === false) return 'pathRewrite: false'
  if (typeof rewrite === 'function') return 'pathRewrite: function'
  return `pathRewrite: ${JSON.stringify(rewrite)}`
}

/** The options of one route that differ from their defaults, in the order of the README's table. */
function differences(route: ResolvedRoute, config: RouteConfig | undefined): string[] {
  const notes: string[] = []
  if (route.changeOrigin !== ROUTE_DEFAULTS.changeOrigin) notes.push(`changeOrigin: ${route.changeOrigin}`)
  const rewrite = describePathRewrite(config)
  if (rewrite) notes.push(rewrite)
  if (route.headers.length > 0) notes.push(`headers: ${route.headers.map(([name]) => name).join(', ')}`)
  if (route.xfwd !== ROUTE_DEFAULTS.xfwd) notes.push(`xfwd: ${route.xfwd}`)
  if (route.ws) notes.push('ws')
  if (route.secure !== ROUTE_DEFAULTS.secure) notes.push(`secure: ${route.secure}`)
  if (route.timeout !== ROUTE_DEFAULTS.timeout) notes.push(`timeout: ${route.timeout}`)
  if (route.cookieDomainRewrite !== '')
    notes.push(`cookieDomainRewrite: ${JSON.stringify(route.cookieDomainRewrite)}`)
  if (route.cookiePathRewrite !== false)
    notes.push(`cookiePathRewrite: ${JSON.stringify(route.cookiePathRewrite)}`)
  if (route.cors) notes.push('cors')
  if (route.jsonp)
    notes.push(route.jsonp.param === DEFAULT_JSONP_PARAM ? 'jsonp' : `jsonp: ${route.jsonp.param}`)
  return notes
}

/**
 * The startup line: every route as `prefix → target`, followed by the options that differ from
 * their defaults, longest prefix first (the order routes are matched in). Pass the routes as the
 * user wrote them to show `pathRewrite` too, which the resolved route keeps only as a function.
 * Both adapters print it once their server listens, so Vite and webpack users read the same line.
 *
 * @example
 * describeRoutes(proxy.routes)
 * // 'routes: /api → http://localhost:3000, /live → http://localhost:3000 (ws), /mock → mock backend (cors)'
 */
export function describeRoutes(routes: readonly ResolvedRoute[], config?: Routes): string {
  const parts = routes.map((route) => {
    const target = route.mock ? 'mock backend' : (route.target?.href.replace(/\/$/, '') ?? 'no target')
    const notes = differences(route, rawRoute(config, route.prefix))
    return `${route.prefix} → ${target}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`
  })
  return `routes: ${parts.length > 0 ? parts.join(', ') : 'none'}`
}

/**
 * The protocol a request arrived with, as the log shows it: `h2` for HTTP/2 (RFC 9113),
 * `h1.1` or `h1.0` otherwise. Read from the request, so it is what ALPN actually negotiated,
 * not what the server offered.
 *
 * @example
 * describeProtocol(req) // 'h2'
 */
export function describeProtocol(req: ProxyRequest): string {
  return req.httpVersionMajor === 2 ? 'h2' : `h1.${req.httpVersionMinor}`
}

/**
 * One debug line per answered request: protocol, method, path as received, status. The same
 * format in every adapter, e.g. `h2 PUT /api/items/1 → 200`.
 *
 * @example
 * describeExchange(req, 204) // 'h1.1 OPTIONS /api/items → 204'
 */
export function describeExchange(req: ProxyRequest, status: number): string {
  return `${describeProtocol(req)} ${req.method} ${req.url} → ${status}`
}
