import type { OptionEntry } from '../config/option-entry.js'
import { OPTION_TABLE } from '../config/option-table.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'

/**
 * The options of one route that differ from their defaults, and what stands in for the target,
 * each as its entry of the option table says it (`startup`), in the table's order.
 */
function differences(route: ResolvedRoute, table: readonly OptionEntry[]): string[] {
  const notes: string[] = []
  for (const entry of table) {
    if (entry.level === 'global' || entry.startup === undefined) continue
    // A simple option's note gets its value on the route, typed by its entry (`option<Written>()`);
    // a mock route has none but `ws`.
    const value =
      entry.check === undefined ? undefined : (route as unknown as Record<string, unknown>)[entry.name]
    const note = entry.startup(route, value as never)
    if (note !== undefined) notes.push(note)
  }
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
 * `table` is the option table; a test passes its own.
 *
 * @example
 * describeRoutes(proxy.routes)
 * // 'routes: /api → http://localhost:3000 (replay: fallback), /live → ws://localhost:3000, /mock → mock backend (cors)'
 */
export function describeRoutes(
  routes: readonly ResolvedRoute[],
  table: readonly OptionEntry[] = OPTION_TABLE,
): string {
  const written = [...routes].sort((a, b) => a.order - b.order)
  const parts = written.map((route) => {
    const notes = differences(route, table)
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
