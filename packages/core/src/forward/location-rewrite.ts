import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { httpOrigin } from '../http/http-origin.js'

/**
 * Points a `Location` (or `Content-Location`) value back at the dev server; `browserOrigin` is
 * the origin the browser used (`undefined` when the request named no host). Returns the value
 * unchanged when it is not the target's.
 */
export type LocationRewriter = (value: string, browserOrigin: string | undefined) => string

/** What a route can do with redirects, decided once per route. */
export type LocationRewrite =
  | { readonly kind: 'off' }
  /** `pathRewrite` is a RegExp map or a function: the path cannot be mapped back. */
  | { readonly kind: 'irreversible'; readonly pointsAtTarget: (value: string) => boolean }
  | {
      readonly kind: 'rewrite'
      readonly rewrite: LocationRewriter
      readonly pointsAtTarget: (value: string) => boolean
    }

const SLASH = 0x2f

/**
 * Builds the route's redirect rewrite once: a `Location` on the target's origin, absolute
 * (`http://localhost:3000/posts`) or path-absolute (`/posts`), gets the dev server's origin (for
 * an absolute one) and the route's path rewrite undone: the target's base path taken off, the
 * prefix put back (`/api/posts`), so the browser stays on the dev server and on the route. A
 * relative value (`posts`, `../x`) already resolves against the proxied URL and is left alone,
 * as are other origins and paths outside the target's base path. Undoing needs the default
 * rewrite (prefix removed) or `pathRewrite: false`; for a RegExp map or a function the kind is
 * `irreversible` and the forwarder says so once.
 *
 * @example
 * const { rewrite } = createLocationRewrite(route) // '/api' → http://localhost:3000
 * rewrite('http://localhost:3000/posts?page=2', 'http://localhost:5173') // 'http://localhost:5173/api/posts?page=2'
 */
export function createLocationRewrite(route: ResolvedForwardRoute): LocationRewrite {
  if (!route.rewriteLocation) return { kind: 'off' }
  const rewrite = route.pathRewrite
  // With `pathRewrite: false` the path went up as it came; otherwise the prefix was removed.
  const prefix = rewrite === false || route.prefix === '/' ? '' : route.prefix
  const targetOrigin = new URL(httpOrigin(route.target)).origin
  const base = route.target.pathname.replace(/\/+$/, '')

  /** The target URL a value designates, or `undefined` when it is relative or elsewhere. */
  function onTarget(value: string): URL | undefined {
    const pathAbsolute = value.charCodeAt(0) === SLASH && value.charCodeAt(1) !== SLASH
    if (!pathAbsolute && !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//')) return undefined
    let url: URL
    try {
      url = new URL(value, targetOrigin)
    } catch {
      return undefined
    }
    if (url.origin !== targetOrigin) return undefined
    if (base !== '' && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return undefined
    return url
  }

  const pointsAtTarget = (value: string): boolean => onTarget(value) !== undefined
  if (rewrite !== undefined && rewrite !== false) return { kind: 'irreversible', pointsAtTarget }
  return {
    kind: 'rewrite',
    pointsAtTarget,
    rewrite(value, browserOrigin) {
      const url = onTarget(value)
      if (url === undefined) return value
      const rest = url.pathname.slice(base.length) || '/'
      const path = `${prefix}${rest}${url.search}${url.hash}`
      if (value.charCodeAt(0) === SLASH && value.charCodeAt(1) !== SLASH) return path
      return browserOrigin === undefined ? value : `${browserOrigin}${path}`
    },
  }
}
