import { CorsDevProxyError } from '../../../config/errors.js'
import { describeType, isPlainObject } from '../../../config/option-path.js'
import type { MatchFunction, MatchRules } from './route-match-options.js'

/*
 * A route's `match`, validated at start-up into the form the recordings use.
 */

/** A route's match rules, resolved. */
export interface ResolvedMatch {
  /** Query keys left out of the key, as written (compared after percent-decoding). */
  readonly ignoreQuery: readonly string[]
  /** Lower-case header names the key holds. */
  readonly matchHeaders: readonly string[]
  readonly body: 'exact' | 'subset'
  /** The function that decides, when `match` is one. */
  readonly test: MatchFunction | undefined
}

const FIX =
  "{ '/api': { target: 'http://localhost:3000', replay: 'only', match: { ignoreQuery: ['_t', 'timestamp'], matchHeaders: ['x-tenant'], body: 'subset' } } }"

const KEYS: readonly (keyof MatchRules)[] = ['ignoreQuery', 'matchHeaders', 'body']

/** An HTTP header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function names(value: unknown, option: string, header: boolean, fix: string): readonly string[] {
  if (value === undefined) return Object.freeze([])
  const valid = (name: unknown) => typeof name === 'string' && name !== '' && (!header || TOKEN.test(name))
  if (!Array.isArray(value) || !value.every(valid)) {
    const what = header ? 'header names' : 'query keys'
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an array of ${what}, got ${describeType(value)}`,
      fix,
    )
  }
  return Object.freeze(value.map((name: string) => (header ? name.toLowerCase() : name)))
}

/**
 * A route's `match`: `undefined` (exact match), rules, or a function.
 *
 * @example
 * checkMatch({ ignoreQuery: ['_t'] }, "routes['/api'].match").ignoreQuery // ['_t']
 */
export function checkMatch(value: unknown, option: string): ResolvedMatch | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'function') {
    return Object.freeze({ ignoreQuery: [], matchHeaders: [], body: 'exact', test: value as MatchFunction })
  }
  if (!isPlainObject(value)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an object of match rules or a function (request, recorded) => boolean, got ${describeType(value)}`,
      FIX,
    )
  }
  const given = value as Record<string, unknown>
  for (const key of Object.keys(given)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new CorsDevProxyError(
        'UNKNOWN_OPTION',
        `${option}.${key}`,
        `is not a match rule (known: ${KEYS.join(', ')})`,
        FIX,
      )
    }
  }
  if (given.body !== undefined && given.body !== 'exact' && given.body !== 'subset') {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      `${option}.body`,
      `must be 'exact' or 'subset' (a request whose JSON body holds every recorded field), got ${describeType(given.body)}`,
      "{ match: { body: 'subset' } }",
    )
  }
  return Object.freeze({
    ignoreQuery: names(
      given.ignoreQuery,
      `${option}.ignoreQuery`,
      false,
      "{ match: { ignoreQuery: ['_t', 'timestamp'] } }",
    ),
    matchHeaders: names(
      given.matchHeaders,
      `${option}.matchHeaders`,
      true,
      "{ match: { matchHeaders: ['x-tenant'] } }",
    ),
    body: given.body === 'subset' ? 'subset' : 'exact',
    test: undefined,
  })
}
