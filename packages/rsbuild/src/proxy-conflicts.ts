import { prefixMatches } from '@cors-dev-proxy/core/adapter'

/** A `server.proxy` path filter that claims requests a cors-dev-proxy route also claims. */
export interface ProxyConflict {
  /** The filter: a key of the object form, or an entry's `pathFilter` in the array form. */
  filter: string
  /** The cors-dev-proxy route prefix it overlaps. */
  prefix: string
}

/** The characters that make http-proxy-middleware read a path filter as a glob (micromatch). */
const GLOB_START = /[*?[{(]|^!/

/** The string path filters of Rsbuild's `server.proxy`: the object's keys, or the entries' `pathFilter`. */
function filtersOf(proxy: unknown): string[] {
  if (!Array.isArray(proxy)) return typeof proxy === 'object' && proxy !== null ? Object.keys(proxy) : []
  return proxy.flatMap((entry: unknown) => {
    const filter = (entry as { pathFilter?: unknown } | null)?.pathFilter
    if (typeof filter === 'string') return [filter]
    if (!Array.isArray(filter)) return []
    // In a list, `!` patterns only take paths away from the others.
    return filter.filter((item): item is string => typeof item === 'string' && !item.startsWith('!'))
  })
}

/**
 * Lists the `server.proxy` filters that overlap a route prefix. The plugin answers its routes
 * before Rsbuild's proxy, so on an overlap cors-dev-proxy answers and the `server.proxy` entry
 * never sees those requests: the plugin warns. http-proxy-middleware matches a plain filter with
 * `pathname.startsWith(filter)` and a glob from its literal start (an estimate); cors-dev-proxy
 * matches whole segments (`/api` never takes `/api2`). Function filters cannot be analysed.
 *
 * @example
 * findProxyConflicts(['/api'], { '/api/v1': 'http://x', '/api2': 'http://y' })
 * // [{ filter: '/api/v1', prefix: '/api' }]
 */
export function findProxyConflicts(prefixes: readonly string[], proxy: unknown): ProxyConflict[] {
  const conflicts: ProxyConflict[] = []
  for (const filter of filtersOf(proxy)) {
    const globAt = filter.search(GLOB_START)
    const literal = globAt === -1 ? filter : filter.slice(0, globAt)
    for (const prefix of prefixes) {
      if (prefix.startsWith(literal) || prefixMatches(prefix, literal)) conflicts.push({ filter, prefix })
    }
  }
  return conflicts
}
