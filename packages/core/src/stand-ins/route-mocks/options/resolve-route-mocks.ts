import { CorsDevProxyError } from '../../../config/errors.js'
import { describeType, isPlainObject, optionEntry } from '../../../config/option-path.js'
import { compilePathPattern, type PathPattern, parsePatternKey } from '../../../http/path-pattern.js'
import { isMockAnswerProblem, mockAnswerOf, type ResolvedMockAnswer } from './route-mock-answer.js'
import type { MockFunction } from './route-mocks-options.js'

/** One key of a route's `mocks` (or one mock file): what it matches and what it answers. */
export interface ResolvedMockRule {
  /** The key as written (`'GET /users/:id'`), for the answer's mark, the log and errors. */
  readonly key: string
  /** The method it takes; `undefined`: any. */
  readonly method: string | undefined
  /** Matched against the path after the prefix, without its query. */
  readonly pattern: PathPattern
  /** A fixed answer (checked at start-up), or a function asked per request. */
  readonly answer: ResolvedMockAnswer | MockFunction
}

/** A route's `mocks`, resolved once; `undefined` on a route without, which gets no mocks step. */
export interface ResolvedMocks {
  /** The keys of the config, in the order written; empty for `true` or a folder. */
  readonly rules: readonly ResolvedMockRule[]
  /**
   * The mock files' folder as given (relative to the dev server's root or the working
   * directory); `undefined`: the route's own, `cors-dev-proxy/mocks/<route>`.
   */
  readonly dir: string | undefined
}

const EXAMPLE = "{ mocks: { 'GET /users/:id': { status: 200, json: { id: 1 } } } }"

function invalid(option: string, problem: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_OPTION', option, problem, EXAMPLE)
}

function resolveRule(key: string, value: unknown, option: string): ResolvedMockRule {
  const parsed = parsePatternKey(key)
  if (parsed === undefined) {
    throw invalid(
      option,
      "is not a path pattern: write 'METHOD /path' or '/path', relative to the route's prefix",
    )
  }
  const pattern = compilePathPattern(parsed.path)
  if (typeof value === 'function') {
    return Object.freeze({ key, method: parsed.method, pattern, answer: value as MockFunction })
  }
  const answer = mockAnswerOf(value)
  if (isMockAnswerProblem(answer)) {
    throw invalid(answer.field === '' ? option : `${option}.${answer.field}`, answer.problem)
  }
  return Object.freeze({ key, method: parsed.method, pattern, answer })
}

/**
 * Validates and resolves a route's `mocks` once (`option` names it in errors): `undefined` when
 * unset or `false`.
 *
 * @example
 * resolveMocks({ 'GET /users/:id': { json: { id: 1 } } }, "routes['/api'].mocks")?.rules[0]?.method // 'GET'
 * resolveMocks('mocks/api', "routes['/api'].mocks")?.dir // 'mocks/api'
 */
export function resolveMocks(value: unknown, option: string): ResolvedMocks | undefined {
  if (value === undefined || value === false) return undefined
  if (value === true) return Object.freeze({ rules: Object.freeze([]), dir: undefined })
  if (typeof value === 'string') {
    if (value.trim() === '' || value.includes('\0'))
      throw invalid(option, 'must be a folder path, got an empty string')
    return Object.freeze({ rules: Object.freeze([]), dir: value })
  }
  if (!isPlainObject(value)) {
    throw invalid(
      option,
      `must be an object of 'METHOD /path' → answer or function, true (files in cors-dev-proxy/mocks/<route>) or a folder path, got ${describeType(value)}`,
    )
  }
  const rules = Object.entries(value).map(([key, answer]) =>
    resolveRule(key, answer, optionEntry(option, key)),
  )
  return Object.freeze({ rules: Object.freeze(rules), dir: undefined })
}
