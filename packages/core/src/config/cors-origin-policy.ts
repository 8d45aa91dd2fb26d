import { isLoopbackOrigin } from '../http/loopback-origin.js'
import { parseOrigin, serializeOrigin } from '../http/parse-origin.js'
import type { CorsOriginFunction } from './cors-options.js'
import { CorsDevProxyError } from './errors.js'
import { describeType } from './option-path.js'

/** How a resolved policy decides the allowed origin. */
export type CorsOriginPolicy =
  /** `'*'`: any origin, the same answer for all. */
  | { readonly kind: 'any' }
  /** `true`: the request's origin is reflected. */
  | { readonly kind: 'reflect' }
  /** A string, RegExp, list or the default: the request's origin is reflected when it passes. */
  | { readonly kind: 'match'; readonly test: (origin: string) => boolean; readonly allowed: AllowedOrigins }
  /** A function decides per request. */
  | { readonly kind: 'function'; readonly decide: CorsOriginFunction }

/**
 * What a `match` policy admits, as the user wrote it: `test` is the rule, this is its data, for
 * code that must carry the same rule elsewhere (the CLI's nginx and Caddy exports).
 */
export interface AllowedOrigins {
  /** The default rule: localhost and loopback origins (`isLoopbackOrigin`). */
  readonly loopback: boolean
  /** Origins allowed exactly, normalized (`'http://localhost:5173'`, or `'null'` when listed). */
  readonly origins: readonly string[]
  /** Patterns tested against the request's `Origin`, without `g`/`y`. */
  readonly patterns: readonly RegExp[]
}

/** Origins remembered per policy by the default matcher, so repeated requests skip URL parsing. */
const ORIGIN_CACHE_SIZE = 64

function fail(option: string, problem: string, example: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_CORS', option, problem, example)
}

/** Normalizes one origin entry of a string or list: a serialized origin or `'null'`. */
function checkOriginString(value: string, option: string): string {
  const parsed = parseOrigin(value)
  if (parsed === null) {
    const hint = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/$/i.test(value) ? ' (remove the trailing slash)' : ''
    throw fail(
      option,
      `is not an origin: ${JSON.stringify(value)}${hint}. An origin is scheme://host[:port], with no path`,
      "{ origin: 'http://localhost:5173' }",
    )
  }
  return serializeOrigin(parsed)
}

/** A RegExp without `g`/`y`, whose `test` would otherwise carry `lastIndex` from one request to the next. */
function statelessRegExp(pattern: RegExp): RegExp {
  return pattern.global || pattern.sticky
    ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
    : pattern
}

function allowedOrigins(loopback: boolean, origins: string[], patterns: RegExp[]): AllowedOrigins {
  return Object.freeze({ loopback, origins: Object.freeze(origins), patterns: Object.freeze(patterns) })
}

/**
 * Resolves `cors.origin` once into a matcher: the default (localhost and loopback, with a small
 * cache), `true` (reflect), `'*'`, a normalized origin string, a RegExp (without `g`/`y`), a
 * list of them, or a function. Throws `CorsDevProxyError` (INVALID_CORS) for anything else,
 * naming `option`.
 *
 * @example
 * resolveOriginPolicy(['http://localhost:5173', /\.localhost:\d+$/], 'cors.origin')
 */
export function resolveOriginPolicy(value: unknown, option: string): CorsOriginPolicy {
  if (value === undefined) {
    const cache = new Map<string, boolean>()
    return {
      kind: 'match',
      allowed: allowedOrigins(true, [], []),
      test(origin) {
        let allowed = cache.get(origin)
        if (allowed === undefined) {
          allowed = isLoopbackOrigin(origin)
          if (cache.size >= ORIGIN_CACHE_SIZE) cache.clear()
          cache.set(origin, allowed)
        }
        return allowed
      },
    }
  }
  if (value === true) return { kind: 'reflect' }
  if (value === '*') return { kind: 'any' }
  if (typeof value === 'function') return { kind: 'function', decide: value as CorsOriginFunction }
  if (typeof value === 'string') {
    const allowed = checkOriginString(value, option)
    return {
      kind: 'match',
      allowed: allowedOrigins(false, [allowed], []),
      test: (origin) => origin === allowed,
    }
  }
  if (value instanceof RegExp) {
    const pattern = statelessRegExp(value)
    return {
      kind: 'match',
      allowed: allowedOrigins(false, [], [pattern]),
      test: (origin) => pattern.test(origin),
    }
  }
  if (Array.isArray(value)) {
    const strings = new Set<string>()
    const patterns: RegExp[] = []
    value.forEach((entry: unknown, index) => {
      const at = `${option}[${index}]`
      if (entry instanceof RegExp) patterns.push(statelessRegExp(entry))
      else if (entry === '*')
        throw fail(at, "is '*' inside a list, where it matches nothing", "{ origin: '*' }")
      else if (typeof entry === 'string') strings.add(checkOriginString(entry, at))
      else
        throw fail(
          at,
          `must be an origin string or a RegExp, got ${describeType(entry)}`,
          "{ origin: ['http://localhost:5173', /\\.localhost:\\d+$/] }",
        )
    })
    return {
      kind: 'match',
      allowed: allowedOrigins(false, [...strings], patterns),
      test: (origin) => strings.has(origin) || patterns.some((pattern) => pattern.test(origin)),
    }
  }
  throw fail(
    option,
    `must be true, '*', an origin string, a RegExp, an array of them, or a function, got ${describeType(value)}`,
    "{ origin: ['http://localhost:5173', /\\.localhost:\\d+$/] }",
  )
}
