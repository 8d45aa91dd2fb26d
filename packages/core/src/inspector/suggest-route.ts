import type { ResolvedRoute } from '../config/resolved-route.js'

/** The route that would make a cross-origin call same-origin, and the call to write instead. */
export interface RouteSuggestion {
  /** The route as it is written in the config: `'/api': 'http://localhost:3000'`. */
  readonly route: string
  /** The path the page calls instead: `/api/items`. */
  readonly path: string
  /** Whether the route already exists (only the call has to change). */
  readonly existing: boolean
}

/** `ws:` → `http:`, `wss:` → `https:`: a route's target is the server's origin. */
function httpOrigin(url: URL): string {
  const scheme = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol
  return `${scheme}//${url.host}`
}

/** The base path of a route's target, without its trailing `/`. */
function basePath(target: URL): string {
  return target.pathname.replace(/\/$/, '')
}

/**
 * The route to add (or the configured one to use) for a call the page made to another origin:
 * a configured route whose target is that server (and whose base path the URL is under) gives
 * the call to write; otherwise `'/api'` (or `'/api2'`... when taken) pointing at the server's
 * origin, the prefix removed on the way as by default; a URL whose path already starts with that
 * prefix keeps it (`pathRewrite: false`). WebSocket URLs get `ws: true`.
 *
 * @example
 * suggestRoute(new URL('http://localhost:3000/items?page=2'), routes)
 * // { route: "'/api': 'http://localhost:3000'", path: '/api/items?page=2', existing: false }
 */
export function suggestRoute(url: URL, routes: readonly ResolvedRoute[]): RouteSuggestion {
  const origin = httpOrigin(url)
  const websocket = url.protocol === 'ws:' || url.protocol === 'wss:'
  const rest = `${url.pathname}${url.search}`
  for (const route of routes) {
    if (route.kind !== 'forward' || !route.hasTarget || httpOrigin(route.target) !== origin) continue
    const base = basePath(route.target)
    if (base !== '' && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) continue
    if (websocket && !route.ws) continue
    const below = rest.slice(base.length)
    const path = route.pathRewrite === false ? rest : `${route.prefix === '/' ? '' : route.prefix}${below}`
    return { route: `'${route.prefix}': '${route.target.href.replace(/\/$/, '')}'`, path, existing: true }
  }
  const taken = new Set(routes.map((route) => route.prefix))
  const base = websocket ? '/socket' : '/api'
  let prefix = base
  for (let index = 2; taken.has(prefix); index += 1) prefix = `${base}${index}`
  const keep = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)
  const target = `'${origin}'`
  const options = [websocket ? 'ws: true' : '', keep ? 'pathRewrite: false' : ''].filter(
    (part) => part !== '',
  )
  const written = options.length === 0 ? target : `{ target: ${target}, ${options.join(', ')} }`
  return {
    route: `'${prefix}': ${written}`,
    path: keep ? rest : `${prefix}${url.pathname === '/' ? '' : url.pathname}${url.search}`,
    existing: false,
  }
}
