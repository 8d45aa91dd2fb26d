import { HTTP_TOKEN } from '../http/http-token.js'
import { normalizeMethod } from '../http/method.js'
import type { CorsOptions } from './cors-options.js'
import { type CorsOriginPolicy, resolveOriginPolicy } from './cors-origin-policy.js'
import { CORS_DEFAULTS } from './defaults.js'
import { CorsDevProxyError } from './errors.js'
import { CORS_OPTION_NAMES } from './nested-option-names.js'
import { describeType, isPlainObject, nestedExample } from './option-path.js'
import { assertKnownKeys } from './unknown-options.js'
import { checkBoolean } from './validate-values.js'

export type { CorsOriginPolicy } from './cors-origin-policy.js'

/** A CORS policy with every default filled in and every header value precomputed. */
export interface ResolvedCorsOptions {
  readonly origin: CorsOriginPolicy
  /** `Access-Control-Allow-Methods` value. */
  readonly allowMethods: string
  /** `Access-Control-Allow-Headers` value, or `undefined` to reflect `Access-Control-Request-Headers`. */
  readonly allowHeaders: string | undefined
  /** `Access-Control-Expose-Headers` value, or `undefined` for none. */
  readonly exposeHeaders: string | undefined
  readonly credentials: boolean
  /** `Access-Control-Max-Age` value, or `undefined` for none. */
  readonly maxAge: string | undefined
  readonly preflightContinue: boolean
  readonly optionsSuccessStatus: number
}

/** Where resolution reports to, and how it names the option in messages. */
export interface ResolveCorsContext {
  /**
   * Path of the option in messages, e.g. `routes['/api'].cors`.
   * @default 'cors'
   */
  readonly option?: string
  /** Receives advice that is not an error (e.g. a `maxAge` Chromium caps). */
  readonly warn?: (message: string) => void
}

/** Chromium caps a preflight cache entry at 2 hours (`kMaxTimeout` in preflight_result.cc); Firefox at 24 hours. */
const CHROMIUM_MAX_AGE = 7200

function fail(option: string, problem: string, example: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_CORS', option, problem, example)
}

/** Validates a string-or-list of tokens (`'GET,PUT'`, `['GET', 'PUT']`) and joins it with `,`, as the `cors` package does. */
function tokenList(value: unknown, option: string, example: string): string | undefined {
  if (value === undefined) return undefined
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined
  if (items === undefined)
    throw fail(option, `must be a string or an array of strings, got ${describeType(value)}`, example)
  for (const item of items) {
    if (typeof item !== 'string')
      throw fail(option, `must contain strings only, got ${describeType(item)}`, example)
    for (const part of item.split(',')) {
      const name = part.trim()
      if (name !== '' && !HTTP_TOKEN.test(name))
        throw fail(option, `contains ${JSON.stringify(name)}, which is not a valid name`, example)
    }
  }
  return (items as string[]).join(',')
}

function names(list: string | undefined): string[] {
  return list === undefined ? [] : list.split(',').map((name) => name.trim())
}

/** `maxAge` as the header's value: a whole number of seconds, with a word when Chromium caps it. */
function resolveMaxAge(
  value: unknown,
  path: string,
  warn: ((message: string) => void) | undefined,
): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw fail(
      path,
      `must be a whole number of seconds (0 or more), got ${describeType(value)}`,
      '{ maxAge: 600 }',
    )
  }
  if (value > CHROMIUM_MAX_AGE) {
    warn?.(
      `${path} is ${value} s, but Chromium caches a preflight for at most ${CHROMIUM_MAX_AGE} s (Firefox 86400 s); longer values change nothing there`,
    )
  }
  return String(value)
}

/** The lists as resolved, and where to say what in them the browser reads otherwise than written. */
interface ListsToCheck {
  readonly option: string
  readonly at: (key: string) => string
  readonly warn: ((message: string) => void) | undefined
  readonly credentials: boolean
  readonly allowMethods: string
  readonly allowHeaders: string | undefined
  readonly exposeHeaders: string | undefined
}

/** Advice, not errors: a lowercase method, a forbidden exposed header, `'*'` with credentials. */
function warnAboutLists(lists: ListsToCheck): void {
  const { option, at, warn, credentials, allowMethods, allowHeaders, exposeHeaders } = lists
  for (const method of names(allowMethods)) {
    const upper = method.toUpperCase()
    if (method === upper) continue
    // The browser uppercases these, so a lowercase entry for one of them never matches (Fetch standard §2.2.1).
    if (normalizeMethod(method) === upper) {
      warn?.(
        `${at('methods')} lists '${method}': the browser sends ${upper} and compares case-sensitively, so write '${upper}'`,
      )
    } else if (upper === 'PATCH') {
      warn?.(
        `${at('methods')} lists '${method}': it matches only scripts that write '${method}' (the browser does not uppercase PATCH); write 'PATCH' for fetch(url, { method: 'PATCH' })`,
      )
    }
  }
  const neverExposed = names(exposeHeaders).filter((name) => /^set-cookie2?$/i.test(name))
  if (neverExposed.length > 0) {
    warn?.(
      `${at('exposedHeaders')} lists '${neverExposed.join("', '")}', which the browser never lets a script read (a forbidden response-header name, Fetch standard §2.2.2); the cookie is still stored when the request sends credentials`,
    )
  }
  if (credentials && (names(allowMethods).includes('*') || names(allowHeaders).includes('*'))) {
    warn?.(
      `${option} lists '*' with \`credentials: true\`: for credentialed requests the browser reads '*' as a literal name, not a wildcard (Fetch standard §3.2.3); list the methods and headers instead`,
    )
  }
}

/**
 * Validates a CORS policy (the `cors` package's option shape) and resolves it once: defaults
 * filled in, origin matchers built, header values precomputed. `false` (and `undefined`)
 * mean no policy; `true` means the defaults. Never mutates `options`.
 *
 * Throws `CorsDevProxyError` (INVALID_CORS) for an unknown key (with a suggestion), a wrong
 * type, an origin that is not `scheme://host[:port]`, a non-2xx `optionsSuccessStatus`, and
 * origin `'*'` with `credentials: true`, which the browser refuses (Fetch standard §3.2.5).
 *
 * @example
 * resolveCorsOptions({ origin: 'http://localhost:5173', credentials: true }, { option: "routes['/api'].cors" })
 */
export function resolveCorsOptions(
  options: boolean | CorsOptions | undefined | unknown,
  context: ResolveCorsContext = {},
): ResolvedCorsOptions | undefined {
  if (options === undefined || options === false) return undefined
  const option = context.option ?? 'cors'
  const at = (key: string): string => `${option}.${key}`
  const source: unknown = options === true ? {} : options
  if (!isPlainObject(source)) {
    throw fail(
      option,
      `must be true, false or an object of CORS options, got ${describeType(source)}`,
      nestedExample(option, 'cors', '{ credentials: true }'),
    )
  }
  assertKnownKeys(source, CORS_OPTION_NAMES, 'cors', at)
  const credentials =
    checkBoolean(source.credentials, at('credentials'), 'credentials', 'INVALID_CORS') ??
    CORS_DEFAULTS.credentials
  if (source.origin === false) return undefined
  if (source.origin === '*' && credentials) {
    throw fail(
      at('origin'),
      "is '*' with `credentials: true`, which the browser refuses: a credentialed response must name the page's origin (Fetch standard §3.2.5)",
      `${nestedExample(option, 'cors', "{ origin: 'http://localhost:5173', credentials: true }")} or ${nestedExample(option, 'cors', '{ origin: true, credentials: true }')}`,
    )
  }
  const origin = resolveOriginPolicy(source.origin, at('origin'))
  const allowMethods =
    tokenList(source.methods, at('methods'), "{ methods: ['GET', 'POST', 'PUT'] }") ?? CORS_DEFAULTS.methods
  const allowHeaders = tokenList(
    source.allowedHeaders,
    at('allowedHeaders'),
    "{ allowedHeaders: ['content-type', 'authorization'] }",
  )
  const exposeHeaders = tokenList(
    source.exposedHeaders,
    at('exposedHeaders'),
    "{ exposedHeaders: ['x-total-count'] }",
  )

  const maxAge = resolveMaxAge(source.maxAge, at('maxAge'), context.warn)
  const status = source.optionsSuccessStatus ?? CORS_DEFAULTS.optionsSuccessStatus
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 299) {
    throw fail(
      at('optionsSuccessStatus'),
      `must be a 2xx status, since the browser rejects a preflight answered otherwise (Fetch standard §4.8), got ${describeType(status)}`,
      '{ optionsSuccessStatus: 204 }',
    )
  }
  warnAboutLists({ option, at, warn: context.warn, credentials, allowMethods, allowHeaders, exposeHeaders })
  return Object.freeze({
    origin,
    allowMethods,
    allowHeaders,
    exposeHeaders,
    credentials,
    maxAge,
    preflightContinue:
      checkBoolean(source.preflightContinue, at('preflightContinue'), 'preflightContinue', 'INVALID_CORS') ??
      CORS_DEFAULTS.preflightContinue,
    optionsSuccessStatus: status,
  })
}
