import { quote } from '../config/option-path.js'
import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import { httpScheme } from '../http/http-origin.js'
import { isLoopbackOrigin } from '../http/loopback-origin.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { joinTargetPath } from '../http/rewrite-path.js'
import { matchRoute } from '../pipeline/match-route.js'

/** The route that would make a cross-origin call same-origin, and the call to write instead. */
export interface RouteSuggestion {
  /** The route as it is written in the config: `'/api': 'http://localhost:3000'`. */
  readonly route: string
  /** The path the page calls instead: `/api/items`. */
  readonly path: string
  /** Whether the route already exists (only the call has to change). */
  readonly existing: boolean
}

/** Who made the call: a WebSocket needs a `ws` route, the others an HTTP one. */
export type CallInitiator = 'fetch' | 'XMLHttpRequest' | 'EventSource' | 'WebSocket'

/**
 * The server a URL reaches, as a key: its http(s) scheme and port, and its host, except that
 * every loopback name (`localhost`, `127.0.0.1`, `[::1]`) is one host, so a route written with
 * one of them counts for a call written with another.
 */
function serverKey(url: URL): string {
  const scheme = httpScheme(url.protocol)
  const origin = `${scheme}//${url.host}`
  const port = url.port === '' ? (scheme === 'https:' ? '443' : '80') : url.port
  return `${scheme}//${isLoopbackOrigin(origin) ? 'loopback' : url.hostname}:${port}`
}

/** The base path of a route's target, without its trailing `/`. */
function basePath(target: URL): string {
  return target.pathname.replace(/\/$/, '')
}

/**
 * A route's target as the user wrote it: the string itself, a `URL`'s href, or, for
 * http-proxy's target object, the URL it stands for with the scheme the object gave.
 */
function writtenTarget(route: ResolvedForwardRoute): string {
  const target = route.source.target
  if (typeof target === 'string') return target.trim()
  if (target instanceof URL) return target.href
  const protocol =
    typeof target === 'object' && target !== null ? (target as { protocol?: unknown }).protocol : ''
  const scheme = typeof protocol === 'string' ? protocol.replace(/:?$/, ':').toLowerCase() : ''
  const url = new URL(route.target.href)
  const written = scheme === 'ws:' || scheme === 'wss:' ? `${scheme}//${url.host}${url.pathname}` : url.href
  return written.replace(/\/$/, '')
}

/** Whether the route was written with a `ws:`/`wss:` target. */
function writtenAsWebSocket(route: ResolvedForwardRoute): boolean {
  return /^wss?:/i.test(writtenTarget(route))
}

/** An option's value as written in a config, when it is a plain value; `undefined` otherwise. */
function writtenValue(value: unknown): string | undefined {
  if (typeof value === 'boolean' || typeof value === 'number') return String(value)
  return typeof value === 'string' ? quote(value) : undefined
}

/**
 * A configured route as the user wrote it, for a message: `'/api': 'http://localhost:3000'`,
 * or, when it was written as an object, its target and its other plain options (booleans,
 * numbers, strings: `'/live': { target: 'http://localhost:3000', ws: true }`; functions and
 * objects are left out). With `withWebSockets`, the route as it should be written to take
 * WebSockets (`ws: true` where it is off).
 *
 * @example
 * writtenRoute(resolveOptions({ '/live': 'ws://localhost:3001' }).routes[0]) // "'/live': 'ws://localhost:3001'"
 */
export function writtenRoute(route: ResolvedForwardRoute, withWebSockets = false): string {
  const target = quote(writtenTarget(route))
  const options: string[] = []
  for (const [name, value] of Object.entries(route.source)) {
    const written = name === 'target' || name === 'ws' ? undefined : writtenValue(value)
    if (written !== undefined) options.push(`${name}: ${written}`)
  }
  if (withWebSockets || route.source.ws !== undefined) options.push(`ws: ${withWebSockets || route.ws}`)
  if (options.length === 0) return `'${route.prefix}': ${target}`
  return `'${route.prefix}': { target: ${target}, ${options.join(', ')} }`
}

/**
 * Whether a configured route fits the call: a route to the same server whose scheme family
 * fits the initiator (a WebSocket needs a route that takes WebSockets; fetch, XHR and
 * EventSource a route written with an `http(s)` target, never a `ws(s)` one).
 */
function fits(route: ResolvedRoute, url: URL, websocket: boolean): route is ResolvedForwardRoute {
  if (route.kind !== 'forward' || !route.hasTarget) return false
  if (serverKey(route.target) !== serverKey(url)) return false
  if (websocket ? !route.ws : writtenAsWebSocket(route)) return false
  const base = basePath(route.target)
  return base === '' || url.pathname === base || url.pathname.startsWith(`${base}/`)
}

/** The path the page calls for `rest` (the called URL's path and query) through `route`, as its prefix removal gives it. */
function pagePathFor(route: ResolvedForwardRoute, rest: string): string {
  const below = rest.slice(basePath(route.target).length)
  return route.pathRewrite === false ? rest : `${route.prefix === '/' ? '' : route.prefix}${below}`
}

/**
 * Whether the route, called at `pagePath`, sends its target the path the page called: its
 * `pathRewrite` checked, not assumed. A function is never run for a suggestion (it is the
 * user's code, and may depend on the request): such a route is taken only when no other fits.
 */
function rewriteGives(route: ResolvedForwardRoute, pagePath: string, url: URL): boolean {
  if (typeof route.pathRewrite === 'function') return false
  let rewritten: string | Promise<string>
  try {
    // Prefix removal and RegExp maps read nothing of the request.
    rewritten = route.rewritePath(pagePath, {} as ProxyRequest)
  } catch {
    return false
  }
  return (
    typeof rewritten === 'string' &&
    joinTargetPath(route.target, rewritten) === `${url.pathname}${url.search}`
  )
}

/**
 * Whether `url` reaches the page's own dev server (its origin, or another loopback name for it):
 * a route to it would send the dev server its own requests.
 *
 * @example
 * isOwnServer(new URL('ws://127.0.0.1:3000/live'), 'http://localhost:3000') // true
 */
export function isOwnServer(url: URL, pageOrigin: string | undefined): boolean {
  return pageOrigin !== undefined && serverKey(url) === serverKey(new URL(pageOrigin))
}

/**
 * The one server the forward routes send to, besides the dev server itself, when there is exactly
 * one: the backend a call to a path no route takes most likely belongs to.
 */
function onlyBackend(routes: readonly ResolvedRoute[], own: string): URL | undefined {
  const servers = new Map<string, URL>()
  for (const route of routes) {
    if (route.kind !== 'forward' || !route.hasTarget) continue
    const key = serverKey(route.target)
    if (key !== own) servers.set(key, route.target)
  }
  return servers.size === 1 ? [...servers.values()][0] : undefined
}

/** What a WebSocket route's target is written as when the backend is unknown: the user puts its address. */
export const BACKEND_PLACEHOLDER = 'ws://<your WebSocket server: host:port>'

/**
 * A call to the page's own dev server (another name for it, or a WebSocket no route takes):
 * never a route whose target is the dev server itself. The route that takes the path, when one
 * does; for a WebSocket no route takes, a route for the path's first segment, to the one
 * backend the routes know (else a placeholder to fill in), keeping the path as the page calls it;
 * for any other call, nothing to add: the dev server serves the path itself.
 */
function ownServerSuggestion(
  url: URL,
  routes: readonly ResolvedRoute[],
  websocket: boolean,
): RouteSuggestion {
  const rest = `${url.pathname}${url.search}`
  const match = matchRoute(routes, rest)
  if (match !== undefined) {
    const route = match.route
    return {
      route: route.kind === 'forward' ? writtenRoute(route, websocket) : `'${route.prefix}': { mock: true }`,
      path: rest,
      existing: true,
    }
  }
  if (!websocket)
    return {
      route: `// no route needed: the dev server serves ${url.pathname} itself`,
      path: rest,
      existing: true,
    }
  const segment = url.pathname.split('/')[1] ?? ''
  const taken = new Set(routes.map((candidate) => candidate.prefix))
  const prefix = segment === '' || taken.has(`/${segment}`) ? '/socket' : `/${segment}`
  const backend = onlyBackend(routes, serverKey(url))
  const target =
    backend === undefined
      ? BACKEND_PLACEHOLDER
      : `${httpScheme(backend.protocol).replace('http', 'ws')}//${backend.host}`
  // The page keeps calling the path it calls: the route keeps it too (`pathRewrite: false`).
  const keep = prefix !== '/socket'
  return {
    route: `'${prefix}': { target: ${quote(target)}, ws: true${keep ? ', pathRewrite: false' : ''} }`,
    path: keep ? rest : `${prefix}${url.pathname === '/' ? '' : url.pathname}${url.search}`,
    existing: false,
  }
}

/**
 * The route to add (or the configured one to use) for a call the page made to another origin.
 * A configured route fits when its target is that server (every loopback name counting as one
 * host), the URL is under its base path and its scheme family fits the initiator; of those, the
 * first (longest prefix) whose `pathRewrite` sends the called path (a function's result is not
 * known: such a route only when no other fits). It gives the call to write, and is printed as
 * written. Otherwise `'/api'` (or `'/api2'`... when taken) pointing at the server's origin, the
 * prefix removed on the way as by default; a URL whose path already starts with that prefix
 * keeps it (`pathRewrite: false`). A WebSocket gets `'/socket'` and a `ws:`/`wss:` target (which
 * turns `ws` on). Without an initiator, the URL's scheme decides. A call to the page's own dev
 * server (`pageOrigin`, under any loopback name) never gets a route to the dev server itself.
 *
 * @example
 * suggestRoute(new URL('http://localhost:3000/items?page=2'), routes, 'fetch')
 * // { route: "'/api': 'http://localhost:3000'", path: '/api/items?page=2', existing: false }
 */
export function suggestRoute(
  url: URL,
  routes: readonly ResolvedRoute[],
  initiator?: CallInitiator,
  pageOrigin?: string,
): RouteSuggestion {
  const websocket =
    initiator === undefined ? url.protocol === 'ws:' || url.protocol === 'wss:' : initiator === 'WebSocket'
  if (isOwnServer(url, pageOrigin)) return ownServerSuggestion(url, routes, websocket)
  const rest = `${url.pathname}${url.search}`
  const fitting: { route: ResolvedForwardRoute; path: string }[] = []
  for (const candidate of routes) {
    if (fits(candidate, url, websocket))
      fitting.push({ route: candidate, path: pagePathFor(candidate, rest) })
  }
  const chosen = fitting.find(({ route, path }) => rewriteGives(route, path, url)) ?? fitting[0]
  if (chosen !== undefined) return { route: writtenRoute(chosen.route), path: chosen.path, existing: true }
  const taken = new Set(routes.map((candidate) => candidate.prefix))
  const base = websocket ? '/socket' : '/api'
  let prefix = base
  for (let index = 2; taken.has(prefix); index += 1) prefix = `${base}${index}`
  const keep = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)
  const scheme = httpScheme(url.protocol)
  const target = `'${websocket ? scheme.replace('http', 'ws') : scheme}//${url.host}'`
  const written = keep ? `{ target: ${target}, pathRewrite: false }` : target
  return {
    route: `'${prefix}': ${written}`,
    path: keep ? rest : `${prefix}${url.pathname === '/' ? '' : url.pathname}${url.search}`,
    existing: false,
  }
}
