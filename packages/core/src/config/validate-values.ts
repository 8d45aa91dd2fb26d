import { isValidJsonpParam, JSONP_PARAM_RULE } from './callback-name.js'
import { JSONP_DEFAULTS } from './defaults.js'
import { CorsDevProxyError } from './errors.js'
import { JSONP_OPTION_NAMES } from './nested-option-names.js'
import { describeType, isPlainObject, nestedExample, optionEntry, quote } from './option-path.js'
import type { CookieRewrite, LogLevel, LogSink, PathRewrite } from './option-value-types.js'
import { assertKnownKeys } from './unknown-options.js'

const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'warn', 'info', 'debug']

function invalid(option: string, problem: string, example: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_OPTION', option, problem, example)
}

/**
 * `undefined` (not set) or a boolean; anything else throws `code` (INVALID_OPTION unless the
 * option belongs to a CORS policy). The caller applies the default with `??`.
 */
export function checkBoolean(
  value: unknown,
  option: string,
  name: string,
  code: 'INVALID_OPTION' | 'INVALID_CORS' = 'INVALID_OPTION',
): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  throw new CorsDevProxyError(
    code,
    option,
    `must be true or false, got ${describeType(value)}`,
    `{ ${name}: ${value ? 'true' : 'false'} }`,
  )
}

/**
 * `undefined` (not set) or a whole number from `min` to `max`; anything else throws
 * INVALID_OPTION with `example`. The caller applies the default with `??`.
 *
 * @example
 * checkWholeNumber(value.maxFiles, 'recordings.maxFiles', 1, 100_000, "{ recordings: { maxFiles: 1000 } }")
 */
export function checkWholeNumber(
  value: unknown,
  option: string,
  min: number,
  max: number,
  example: string,
): number | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value
  throw invalid(option, `must be a whole number from ${min} to ${max}, got ${describeType(value)}`, example)
}

/**
 * `undefined` or a positive finite number of milliseconds, at most 2^31 - 1: Node's timers
 * fire immediately for larger delays (with a TimeoutOverflowWarning).
 */
export function checkTimeout(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 2_147_483_647) return value
  throw invalid(
    option,
    `must be a positive number of milliseconds (at most 2147483647), got ${describeType(value)}`,
    '{ timeout: 30000 }',
  )
}

/** `undefined`, `false`, a function, or an object of RegExp source → replacement string (copied, frozen). */
export function checkPathRewrite(value: unknown, option: string): PathRewrite | undefined {
  if (value === undefined || value === false || typeof value === 'function')
    return value as PathRewrite | undefined
  const example = "{ pathRewrite: { '^/api/v1': '/v2' } } or { pathRewrite: false }"
  if (!isPlainObject(value)) {
    throw invalid(
      option,
      `must be false (keep the prefix), an object of RegExp → replacement or a function, got ${describeType(value)}`,
      example,
    )
  }
  for (const [source, replacement] of Object.entries(value)) {
    if (typeof replacement !== 'string') {
      throw invalid(
        optionEntry(option, source),
        `must be a replacement string, got ${describeType(replacement)}`,
        example,
      )
    }
  }
  return Object.freeze({ ...(value as Record<string, string>) })
}

/**
 * `undefined`, `false`, a string or an object of old → new value (copied, frozen). Values may
 * not contain `;`, CR or LF, which would inject cookie attributes or break the header; a
 * non-empty Path must start with `/` (RFC 6265 section 5.2.4 ignores any other).
 */
export function checkCookieRewrite(
  value: unknown,
  option: string,
  kind: 'domain' | 'path',
): CookieRewrite | undefined {
  if (value === undefined || value === false) return value
  const example =
    kind === 'domain'
      ? "{ cookieDomainRewrite: { 'api.example.com': 'localhost' } }"
      : "{ cookiePathRewrite: { '/api': '/' } }"
  const checkOne = (replacement: unknown, at: string): void => {
    if (typeof replacement !== 'string')
      throw invalid(at, `must be a string, got ${describeType(replacement)}`, example)
    if (/[;\r\n\0]/.test(replacement)) throw invalid(at, 'must not contain ;, CR, LF or NUL', example)
    if (kind === 'path' && replacement !== '' && !replacement.startsWith('/')) {
      throw invalid(at, "must be '' (remove) or a path starting with '/'", example)
    }
  }
  if (typeof value === 'string') {
    checkOne(value, option)
    return value
  }
  if (!isPlainObject(value)) {
    throw invalid(
      option,
      `must be false, a string or an object of old → new value, got ${describeType(value)}`,
      example,
    )
  }
  for (const [from, to] of Object.entries(value)) checkOne(to, optionEntry(option, from))
  return Object.freeze({ ...(value as Record<string, string>) })
}

/** `undefined` or a function; anything else is INVALID_OPTION with `example`. */
export function checkFunction<F>(value: unknown, option: string, example: string): F | undefined {
  if (value === undefined || typeof value === 'function') return value as F | undefined
  throw invalid(option, `must be a function, got ${describeType(value)}`, example)
}

/** `jsonp`: `undefined`, `false`, or `{ param }` with a valid query parameter name (`true` → `callback`). */
export function checkJsonp(value: unknown, option: string): false | { readonly param: string } | undefined {
  if (value === undefined || value === false) return value
  if (value === true) return Object.freeze({ param: JSONP_DEFAULTS.param })
  const example = nestedExample(option, 'jsonp', "{ param: 'callback' }")
  if (!isPlainObject(value))
    throw invalid(option, `must be true, false or { param }, got ${describeType(value)}`, example)
  assertKnownKeys(value, JSONP_OPTION_NAMES, 'jsonp', (key) => `${option}.${key}`)
  const param = value.param ?? JSONP_DEFAULTS.param
  if (!isValidJsonpParam(param)) {
    throw invalid(`${option}.param`, `must be ${JSONP_PARAM_RULE}, got ${describeType(param)}`, example)
  }
  return Object.freeze({ param })
}

/** `log`: one of the levels. */
export function checkLogLevel(value: unknown, option: string): LogLevel | undefined {
  if (value === undefined || LOG_LEVELS.includes(value as LogLevel)) return value as LogLevel | undefined
  throw invalid(
    option,
    `must be one of ${LOG_LEVELS.map(quote).join(', ')}, got ${describeType(value)}`,
    "{ log: 'debug' }",
  )
}

/** `logger`: an object with `info`, `warn` and `error` functions (Vite's and webpack's loggers qualify). */
export function checkLogSink(value: unknown, option: string): LogSink | undefined {
  if (value === undefined) return undefined
  const sink = value as Partial<Record<keyof LogSink, unknown>> | null
  if (
    sink !== null &&
    typeof sink === 'object' &&
    typeof sink.info === 'function' &&
    typeof sink.warn === 'function' &&
    typeof sink.error === 'function'
  ) {
    return sink as LogSink
  }
  throw invalid(
    option,
    `must have info, warn and error methods, got ${describeType(value)}`,
    '{ logger: console }',
  )
}

/**
 * http-proxy's `auth` (`'user:password'`): the value of a Basic `Authorization` header
 * (RFC 7617), computed once; `undefined` when not set. Like Node's `http.request({ auth })`,
 * which http-proxy hands it to, the header is sent only when the request carries none.
 */
export function checkAuth(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string' && value.includes(':'))
    return `Basic ${Buffer.from(value, 'utf8').toString('base64')}`
  throw invalid(
    option,
    `must be a 'user:password' string (sent as Basic Authorization), got ${describeType(value)}`,
    "{ auth: 'user:password' }",
  )
}

/**
 * http-proxy's `followRedirects` (httpxy's `boolean | number`): how many redirects to follow on
 * the server side. `true` is 20, the browser's limit (Fetch standard, HTTP-redirect fetch); a
 * number from 1 to 20 is its own limit; `false`, `0` or unset relay redirects to the browser.
 */
export function checkFollowRedirects(value: unknown, option: string): number {
  if (value === undefined || value === false || value === 0) return 0
  if (value === true) return 20
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 20) return value
  throw invalid(
    option,
    `must be true (follow up to 20 redirects, as a browser does), false, or a number of redirects from 1 to 20, got ${describeType(value)}`,
    '{ followRedirects: true }',
  )
}
