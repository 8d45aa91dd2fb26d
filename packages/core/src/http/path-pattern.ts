/*
 * The `'METHOD /path/:param'` keys of `faults` and `mocks`, in one place: how a key is read,
 * how its path is compiled, and which part of a request's path it is matched against (the path
 * after the route's prefix, without its query).
 */

/** A key as written, split: the method it takes (`undefined`: any) and its path pattern. */
export interface PatternKey {
  /** Upper-cased, as the faults have always compared it; `undefined` for a key without one. */
  readonly method: string | undefined
  /** Starts with `/`, relative to the route's prefix. */
  readonly path: string
}

/** A compiled path pattern: the expression, and the names of its parameters in capture order. */
export interface PathPattern {
  /** One capture group per `:name`, and one for a final `*`. */
  readonly regex: RegExp
  /** The parameters' names (`'*'` for the final wildcard), in the order of the groups. */
  readonly names: readonly string[]
}

const KEY = /^(?:([A-Za-z]+) +)?(\/\S*)$/

/**
 * Reads a `'METHOD /path'` or `'/path'` key; `undefined` when it is neither.
 *
 * @example
 * parsePatternKey('get /users/:id') // { method: 'GET', path: '/users/:id' }
 */
export function parsePatternKey(key: string): PatternKey | undefined {
  const parts = KEY.exec(key.trim())
  if (parts === null) return undefined
  return { method: parts[1]?.toUpperCase(), path: parts[2] as string }
}

/**
 * Compiles a path pattern (`/users/:id`, `/files/*`) relative to the prefix: `:name` is one
 * segment, a final `*` the rest (or nothing), everything else literal; a trailing `/` is optional.
 *
 * @example
 * compilePathPattern('/users/:id').regex.test('/users/42') // true
 */
export function compilePathPattern(path: string): PathPattern {
  const wildcard = path.endsWith('/*')
  const fixed = wildcard ? path.slice(0, -2) : path
  const names: string[] = []
  const source = fixed
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':') || segment.length === 1)
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      names.push(segment.slice(1))
      return '([^/]+)'
    })
    .join('/')
  if (wildcard) names.push('*')
  return Object.freeze({
    regex: new RegExp(`^${source}${wildcard ? '(?:/(.*))?' : '/?'}$`),
    names: Object.freeze(names),
  })
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * The parameters of `relative` under `pattern` (percent-decoded), or `undefined` when it does
 * not match.
 *
 * @example
 * matchPathPattern(compilePathPattern('/users/:id'), '/users/a%20b') // { id: 'a b' }
 */
export function matchPathPattern(pattern: PathPattern, relative: string): Record<string, string> | undefined {
  const match = pattern.regex.exec(relative)
  if (match === null) return undefined
  const params: Record<string, string> = {}
  pattern.names.forEach((name, index) => {
    params[name] = decoded(match[index + 1] ?? '')
  })
  return params
}

/**
 * The path after the route's prefix, without its query, as the keys are written (`/` at least).
 *
 * @example
 * pathAfterPrefix('/api', '/api/users/42?full=1') // '/users/42'
 */
export function pathAfterPrefix(prefix: string, path: string): string {
  const query = path.indexOf('?')
  const bare = query === -1 ? path : path.slice(0, query)
  const rest = prefix === '/' ? bare : bare.slice(prefix.length)
  return rest === '' ? '/' : rest
}
