import { matchRoute, prefixMatches, type ResolvedRoute } from '@cors-dev-proxy/core/adapter'

/**
 * Which browser calls the replay takes, and the path each one has on the proxy's routes: a
 * route's prefix on any origin (`http://localhost:5173/api/users`, `https://app.test/api/users`),
 * and a call made straight to a route's target (`http://localhost:3000/users` for `'/api'` →
 * `http://localhost:3000`), mapped back onto the prefix as the route would have rewritten it
 * (`/api/users`). Only the default `pathRewrite` (prefix removed) and `pathRewrite: false` can
 * be undone; a route with any other rewrite is reached through its prefix only.
 */

/** Maps a browser call's URL to the path and query the routes see, or `undefined` when no route takes it. */
export type CallMapper = (url: URL) => string | undefined

/** A route a call to its target's origin can be mapped back to. */
interface TargetEntry {
  readonly origin: string
  /** The target's path, without a trailing `/` (`''` for none). */
  readonly base: string
  readonly prefix: string
  /** `pathRewrite: false`: the target gets the prefix too. */
  readonly keepsPrefix: boolean
}

/** The routes whose target calls can be mapped back, the longest target path first, then as written. */
function targetEntries(routes: readonly ResolvedRoute[]): TargetEntry[] {
  const entries: TargetEntry[] = []
  for (const route of routes) {
    if (route.kind !== 'forward' || !route.hasTarget) continue
    if (route.pathRewrite !== undefined && route.pathRewrite !== false) continue
    const base = route.target.pathname.replace(/\/+$/, '')
    entries.push({
      origin: route.target.origin,
      base,
      prefix: route.prefix,
      keepsPrefix: route.pathRewrite === false,
    })
  }
  const order = new Map(routes.map((route) => [route.prefix, route.order]))
  return entries.sort(
    (a, b) => b.base.length - a.base.length || (order.get(a.prefix) ?? 0) - (order.get(b.prefix) ?? 0),
  )
}

/** The route path of a call to a target: `undefined` when it is not under the target's path. */
function fromTarget(entry: TargetEntry, url: URL): string | undefined {
  if (url.origin !== entry.origin) return undefined
  if (entry.base !== '' && !prefixMatches(entry.base, url.pathname)) return undefined
  const rest = url.pathname.slice(entry.base.length)
  if (entry.keepsPrefix) return `${rest === '' ? '/' : rest}${url.search}`
  const joined = entry.prefix === '/' ? rest || '/' : `${entry.prefix}${rest === '/' ? '' : rest}`
  return `${joined}${url.search}`
}

/**
 * Builds the mapper of a set of resolved routes (longest prefix first, as `resolveOptions`
 * returns them). Target calls are tried first: a call to the target's own origin is the
 * backend's, even when its path also happens to start with a prefix.
 *
 * @example
 * const map = createCallMapper(resolveOptions({ '/api': 'http://localhost:3000' }).routes)
 * map(new URL('http://localhost:3000/users?page=2')) // '/api/users?page=2'
 * map(new URL('http://localhost:5173/api/users')) // '/api/users'
 * map(new URL('http://localhost:5173/index.html')) // undefined
 */
export function createCallMapper(routes: readonly ResolvedRoute[]): CallMapper {
  const targets = targetEntries(routes)
  return function mapCall(url) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    for (const entry of targets) {
      const path = fromTarget(entry, url)
      if (path !== undefined && matchRoute(routes, path)?.route.prefix === entry.prefix) return path
    }
    const path = `${url.pathname}${url.search}`
    return matchRoute(routes, path) === undefined ? undefined : path
  }
}
