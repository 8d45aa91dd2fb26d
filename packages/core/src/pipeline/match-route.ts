import type { ResolvedRoute } from '../config/resolved-route.js'
import { normalizePath, prefixMatches, splitPathAndQuery } from '../http/normalize-path.js'

export { prefixMatches } from '../http/normalize-path.js'

/** The route a request belongs to, and its normalized path. */
export interface RouteMatch {
  /** The matching route with the longest prefix. */
  route: ResolvedRoute
  /** The origin-form path after dot-segment resolution, with the query string kept verbatim. */
  path: string
}

const SLASH = 0x2f

/**
 * Whether a request target is in origin-form (RFC 9112 section 3.2.1: an absolute path and an
 * optional query), the only form a proxy route may answer. Absolute-form (`http://x/y`),
 * authority-form (`host:443`, used by CONNECT) and asterisk-form (`*`) are not: forwarding
 * them would let a client choose the upstream host, so the engine answers them 400.
 *
 * @example
 * isOriginForm('/api/users?x=1') // true
 * isOriginForm('http://evil.example/') // false
 */
export function isOriginForm(rawUrl: string): boolean {
  return rawUrl.charCodeAt(0) === SLASH
}

/**
 * Finds the route of a request: the query is split off, the path normalized (dot-segments and
 * backslashes, see `normalizePath`), then the first route whose prefix covers the path wins.
 * `routes` must be sorted longest prefix first, as `resolveOptions` returns them, so the
 * first match is the longest, whatever the key order the user wrote.
 *
 * Returns `undefined` when no route matches and for any target that is not origin-form
 * (see {@link isOriginForm}); the engine answers those 400 before matching.
 *
 * @example
 * matchRoute(resolveOptions({ '/api': 'http://localhost:3000' }).routes, '/api/../api/users?x=1')
 * // { route: <the /api route>, path: '/api/users?x=1' }
 */
export function matchRoute(routes: readonly ResolvedRoute[], rawUrl: string): RouteMatch | undefined {
  if (!isOriginForm(rawUrl)) return undefined
  const [rawPath, query] = splitPathAndQuery(rawUrl)
  const path = normalizePath(rawPath)
  for (const route of routes) {
    if (prefixMatches(route.prefix, path)) return { route, path: path + query }
  }
  return undefined
}

/** A request's route, looked up once per request however many times it is asked for. */
export interface RequestMatcher {
  (req: { readonly url?: string | undefined }): RouteMatch | undefined
  /**
   * The same answer for the last one to ask about a request (the proxy's middleware): what an
   * earlier asker left in the memo, else a fresh match that is not stored, since nobody will
   * ask again and a memo entry per request is most of the cost of matching.
   */
  readonly withoutMemo: (req: { readonly url?: string | undefined }) => RouteMatch | undefined
}

/**
 * Wraps {@link matchRoute} for one set of routes so that each request is matched once: the
 * host's upgrade filter asks whether a route takes an upgrade and the proxy then serves it,
 * from the same match (an HTTP request's `claims` uses `withoutMemo`: matching the path twice
 * costs less than a memo entry per request). The memo is keyed by
 * the request object and its URL, so a middleware that rewrites `req.url` in between gets a
 * fresh match, and it is garbage-collected with the request.
 *
 * @example
 * const matchOf = createRequestMatcher(resolved.routes)
 * matchOf(req)?.route.prefix // '/api'
 */
export function createRequestMatcher(routes: readonly ResolvedRoute[]): RequestMatcher {
  const memo = new WeakMap<object, { readonly url: string; readonly match: RouteMatch | undefined }>()
  function matchRequest(req: { readonly url?: string | undefined }): RouteMatch | undefined {
    const url = req.url
    if (url === undefined) return undefined
    const seen = memo.get(req)
    if (seen !== undefined && seen.url === url) return seen.match
    const match = matchRoute(routes, url)
    memo.set(req, { url, match })
    return match
  }
  function matchRequestWithoutMemo(req: { readonly url?: string | undefined }): RouteMatch | undefined {
    const url = req.url
    if (url === undefined) return undefined
    const seen = memo.get(req)
    return seen !== undefined && seen.url === url ? seen.match : matchRoute(routes, url)
  }
  return Object.assign(matchRequest, { withoutMemo: matchRequestWithoutMemo })
}
