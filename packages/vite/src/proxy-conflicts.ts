import { prefixMatches } from '@cors-dev-proxy/core/adapter'

/** A `server.proxy` (or `preview.proxy`) key that claims requests a cors-dev-proxy route also claims. */
export interface ProxyConflict {
  /** The key in Vite's `proxy` option, e.g. `'/api'` or `'^/api/.*'`. */
  context: string
  /** The cors-dev-proxy route prefix it overlaps. */
  prefix: string
}

/**
 * Whether some request path is claimed both by Vite's proxy context and by a route prefix.
 * Vite matches a context with `url.startsWith(context)`, or as a RegExp when it starts with
 * `^`; cors-dev-proxy matches whole segments (`/api` never takes `/api2`).
 */
function overlaps(context: string, prefix: string): boolean {
  if (context.startsWith('^')) {
    let pattern: RegExp
    try {
      pattern = new RegExp(context)
    } catch {
      return false
    }
    return pattern.test(prefix) || pattern.test(prefix === '/' ? '/' : `${prefix}/`)
  }
  // Every path under the prefix starts with it, so Vite takes them all when its context is a
  // leading part of the prefix; otherwise only the paths starting with the whole context
  // overlap, which exist when the context itself lies under the prefix.
  return prefix.startsWith(context) || prefixMatches(prefix, context.split('?')[0] as string)
}

/**
 * Lists the keys of Vite's `server.proxy`/`preview.proxy` that overlap a route prefix. The
 * plugin's middleware runs before Vite's proxy, so on an overlap cors-dev-proxy answers and
 * the `server.proxy` entry is silently dead for those paths: the plugin warns instead.
 *
 * @example
 * findProxyConflicts(['/api'], { '/api/v1': 'http://x', '/api2': 'http://y' })
 * // [{ context: '/api/v1', prefix: '/api' }]
 */
export function findProxyConflicts(prefixes: readonly string[], proxy: object | undefined): ProxyConflict[] {
  if (!proxy) return []
  const conflicts: ProxyConflict[] = []
  for (const context of Object.keys(proxy)) {
    for (const prefix of prefixes) {
      if (overlaps(context, prefix)) conflicts.push({ context, prefix })
    }
  }
  return conflicts
}
