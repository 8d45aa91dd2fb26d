import { prefixMatches } from '../http/normalize-path.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { CorsDevProxyError } from './errors.js'
import type { PathFilter } from './hook-options.js'
import { describeType } from './option-path.js'

/** Whether the route takes a request: its path (no query, dot-segments resolved) and the request. */
export type ResolvedPathFilter = (path: string, req: ProxyRequest) => boolean

const EXAMPLE = "{ pathFilter: (path, req) => path.startsWith('/api/v2') && req.method === 'GET' }"

function checkPrefix(value: unknown, option: string): string {
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be a path starting with '/', got ${describeType(value)}`,
      "{ pathFilter: ['/api/v2', '/api/auth'] }",
    )
  }
  // Globs are http-proxy-middleware's micromatch patterns: a function says the same without a
  // pattern language (and without its surprises).
  if (/[*?![\]{}]/.test(value)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `is a glob (${JSON.stringify(value)}): cors-dev-proxy matches path prefixes; write the test as a function`,
      EXAMPLE,
    )
  }
  return value.length > 1 ? value.replace(/\/+$/, '') : value
}

/**
 * Validates `pathFilter` once: a function, a path prefix or a list of them (segment-safe, as
 * route keys are). `undefined` when the route takes every request of its prefix.
 *
 * @example
 * resolvePathFilter(['/api/v2', '/api/auth'], "routes['/api'].pathFilter")
 */
export function resolvePathFilter(
  filter: PathFilter | unknown,
  option: string,
): ResolvedPathFilter | undefined {
  if (filter === undefined) return undefined
  if (typeof filter === 'function') return filter as ResolvedPathFilter
  if (typeof filter === 'string') {
    const prefix = checkPrefix(filter, option)
    return (path) => prefixMatches(prefix, path)
  }
  if (Array.isArray(filter)) {
    const prefixes = filter.map((entry, index) => checkPrefix(entry, `${option}[${index}]`))
    return (path) => prefixes.some((prefix) => prefixMatches(prefix, path))
  }
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be a function (path, req) => boolean, a path or a list of paths, got ${describeType(filter)}`,
    EXAMPLE,
  )
}
