import { JSONP_DEFAULTS, ROUTE_DEFAULTS } from '../config/defaults.js'
import type { PathRewrite } from '../config/options.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'

/** `pathRewrite` as the user wrote it, or `undefined` for the default (prefix removed). */
function describePathRewrite(rewrite: PathRewrite | undefined): string | undefined {
  if (rewrite === undefined) return undefined
  if (rewrite === false) return 'pathRewrite: false'
  if (typeof rewrite === 'function') return 'pathRewrite: function'
  return `pathRewrite: ${JSON.stringify(rewrite)}`
}

/** The options of one route that differ from their defaults, in the order of the Options page (the order of `RouteOptions`). */
function differences(route: ResolvedRoute): string[] {
  const notes: string[] = []
  // Only a forwarding route has these; a mock route answers itself.
  const forward = route.kind === 'forward' ? route : undefined
  if (forward && forward.changeOrigin !== ROUTE_DEFAULTS.changeOrigin)
    notes.push(`changeOrigin: ${forward.changeOrigin}`)
  const rewrite = describePathRewrite(route.pathRewrite)
  if (rewrite) notes.push(rewrite)
  if (forward && forward.headers.length > 0)
    notes.push(`headers: ${forward.headers.map(([name]) => name).join(', ')}`)
  if (forward && forward.xfwd !== ROUTE_DEFAULTS.xfwd) notes.push(`xfwd: ${forward.xfwd}`)
  // A ws:/wss: target says it already; turned off, that is worth a note.
  if (forward?.websocketTarget) {
    if (!forward.ws) notes.push('ws: false')
  } else if (route.ws) notes.push('ws')
  if (forward && forward.secure !== ROUTE_DEFAULTS.secure) notes.push(`secure: ${forward.secure}`)
  if (forward?.timeout !== undefined) notes.push(`timeout: ${forward.timeout}`)
  if (forward && forward.cookieDomainRewrite !== ROUTE_DEFAULTS.cookieDomainRewrite)
    notes.push(`cookieDomainRewrite: ${JSON.stringify(forward.cookieDomainRewrite)}`)
  if (forward && forward.cookiePathRewrite !== ROUTE_DEFAULTS.cookiePathRewrite)
    notes.push(`cookiePathRewrite: ${JSON.stringify(forward.cookiePathRewrite)}`)
  if (forward?.authorization !== undefined) notes.push('auth')
  if (forward?.agent !== undefined) notes.push('agent')
  if (forward && forward.followRedirects > 0) notes.push(`followRedirects: ${forward.followRedirects}`)
  if (route.cors) notes.push('cors')
  const control = route.control
  if (control !== undefined && control.targets.length > 0)
    notes.push(`target '${control.initial}' of ${control.targets.map((target) => target.name).join(', ')}`)
  if (control?.faults !== undefined || (control?.rules.length ?? 0) > 0) notes.push('faults')
  if (forward?.mocks !== undefined)
    notes.push(forward.mocks.dir === undefined ? 'mocks' : `mocks: ${forward.mocks.dir}`)
  // What answers in the target's place, or keeps its answers: said as the options are written.
  if (forward?.record) notes.push('record')
  if (forward?.replay !== undefined) notes.push(`replay: ${forward.replay}`)
  if (route.jsonp)
    notes.push(route.jsonp.param === JSONP_DEFAULTS.param ? 'jsonp' : `jsonp: ${route.jsonp.param}`)
  return notes
}

/** Where a route goes, as the user wrote it: a `ws:` target stays `ws:`, whatever requests go to. */
function describeTarget(route: ResolvedRoute): string {
  if (route.kind === 'mock') return 'mock backend'
  if (!route.hasTarget) return route.source.router === undefined ? 'no target (bypass only)' : 'router'
  const href = route.target.href.replace(/\/$/, '')
  const written = route.websocketTarget ? href.replace(/^http/, 'ws') : href
  return `${written}${route.socketPath === undefined ? '' : ` via ${route.socketPath}`}`
}

/**
 * The startup line: every route as `prefix → target`, followed by the options that differ from
 * their defaults and what stands in for the target (mocks, recordings, faults), in the order the
 * routes are written (they are matched longest prefix first, whatever that order).
 * Every front end prints it once, so Vite, webpack and Fetch handler users read the same line.
 *
 * @example
 * describeRoutes(proxy.routes)
 * // 'routes: /api → http://localhost:3000 (replay: fallback), /live → ws://localhost:3000, /mock → mock backend (cors)'
 */
export function describeRoutes(routes: readonly ResolvedRoute[]): string {
  const written = [...routes].sort((a, b) => a.order - b.order)
  const parts = written.map((route) => {
    const notes = differences(route)
    return `${route.prefix} → ${describeTarget(route)}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`
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
 * One debug line per answered request, with both hops: protocol, method and path as received,
 * where it went (the upstream URL, `mock backend`, or `cors-dev-proxy` for an answer given
 * here, such as a preflight), status and time. The same format in every adapter, e.g.
 * `h2 GET /api/users → http://localhost:3000/users 200 12 ms`.
 *
 * @example
 * describeExchange(req, 204, 'cors-dev-proxy', 0.4) // 'h1.1 OPTIONS /api/items → cors-dev-proxy 204 0 ms'
 */
export function describeExchange(
  req: ProxyRequest,
  status: number,
  hop: string,
  milliseconds: number,
): string {
  return `${describeProtocol(req)} ${req.method} ${req.url} → ${hop} ${status} ${Math.round(milliseconds)} ms`
}
