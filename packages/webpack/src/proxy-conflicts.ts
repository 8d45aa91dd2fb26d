import { prefixMatches } from '@cors-dev-proxy/core/adapter'

/** The keys webpack-dev-server reads an entry's path filter from, in its order (`context || path || pathFilter`). */
const FILTER_KEYS = ['context', 'path', 'pathFilter'] as const

/** A `devServer.proxy` entry that claims requests a cors-dev-proxy route also claims. */
export interface ProxyConflict {
  /** The entry's position in `devServer.proxy`. */
  index: number
  /** The key its path filter was read from. */
  key: (typeof FILTER_KEYS)[number]
  /** The path or glob that overlaps (one element when the filter is a list). */
  context: string
  /** Whether `context` is a glob, whose overlap is estimated from its literal start. */
  glob: boolean
  /** The cors-dev-proxy route prefix it overlaps. */
  prefix: string
}

/**
 * The characters that make http-proxy-middleware (through `is-glob`) read a path filter as a
 * micromatch glob rather than a path prefix: wildcards, classes, braces, extglobs, a leading `!`.
 */
const GLOB_START = /[*?[{(]|^!/

/**
 * The routes that answer some of the paths a filter with this literal start claims.
 * http-proxy-middleware (2 in webpack-dev-server 5, 4 in 6) matches a plain filter with
 * `pathname.startsWith(filter)`; cors-dev-proxy matches whole segments (`/api` never takes
 * `/api2`) and the longest prefix wins. So the filter takes every path of a route whose prefix
 * starts with it, and the path the filter names is itself answered by the longest route that
 * covers it. A glob can only match paths that start with its literal part, which is tested the
 * same way: an estimate, since `/api/*` does not reach as deep as a route on `/api/v1/users`.
 * `prefixes` is sorted longest first.
 */
function routesClaiming(literal: string, prefixes: readonly string[]): string[] {
  const claimed = prefixes.filter((prefix) => prefix.startsWith(literal))
  const owner = prefixes.find((prefix) => prefixMatches(prefix, literal))
  if (owner !== undefined && !claimed.includes(owner)) claimed.push(owner)
  return claimed
}

/** The string filters of an entry, with the key they came from; functions and other shapes cannot be analysed. */
function stringFilters(entry: object): { key: ProxyConflict['key']; filters: string[] } | undefined {
  const record = entry as Record<string, unknown>
  // An entry with neither proxies nothing (a `bypass`-only entry in webpack-dev-server 5).
  if (!record.target && !record.router) return undefined
  const key = FILTER_KEYS.find((name) => record[name])
  // No filter at all: webpack-dev-server 5 then proxies nothing and 6 everything; not guessed at.
  if (key === undefined) return undefined
  const filter = record[key]
  if (typeof filter === 'string') return { key, filters: [filter] }
  if (Array.isArray(filter) && filter.every((item) => typeof item === 'string')) {
    // In a list of globs, `!` patterns only take paths away from the others.
    return { key, filters: filter.length > 1 ? filter.filter((item) => !item.startsWith('!')) : filter }
  }
  return undefined
}

/**
 * Lists the `devServer.proxy` entries (webpack-dev-server 5 and 6: an array of
 * http-proxy-middleware options with `context`, `path` or `pathFilter`) that overlap a route
 * prefix. The adapter's middleware runs before webpack-dev-server's proxy middlewares, so on an
 * overlap cors-dev-proxy answers and the entry never sees those requests: the adapter warns.
 * Entries given as functions, and function filters, cannot be analysed and are skipped.
 *
 * @example
 * findProxyConflicts(['/api'], [{ context: ['/auth', '/api/v1'], target: 'http://x' }])
 * // [{ index: 0, key: 'context', context: '/api/v1', glob: false, prefix: '/api' }]
 */
export function findProxyConflicts(prefixes: readonly string[], proxy: unknown): ProxyConflict[] {
  if (!Array.isArray(proxy)) return []
  const longestFirst = [...prefixes].sort((a, b) => b.length - a.length)
  const conflicts: ProxyConflict[] = []
  proxy.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) return
    const found = stringFilters(entry)
    if (!found) return
    for (const context of found.filters) {
      const globAt = context.search(GLOB_START)
      const literal = globAt === -1 ? context : context.slice(0, globAt)
      for (const prefix of routesClaiming(literal, longestFirst)) {
        conflicts.push({ index, key: found.key, context, glob: globAt !== -1, prefix })
      }
    }
  })
  return conflicts
}
