/**
 * Chromium's CORS console messages, word for word, so the proxy's log reads exactly like the
 * browser console. Source: Blink's `cors_error_string.cc` (`GetErrorString`) for the texts,
 * checked against the real Chromium 156 console: the `fetch` variants of 156 add no "opaque
 * response" hint to the missing-header text, and add " Have the server send the header with a
 * valid value." to the three texts about a bad `Access-Control-Allow-Origin` value
 * (XMLHttpRequest's do not).
 */

/** The CORS errors Chromium reports (a subset of `network::mojom::CorsError`). */
export type CorsErrorKind =
  | 'missing-allow-origin'
  | 'wildcard-origin-with-credentials'
  | 'multiple-allow-origin-values'
  | 'invalid-allow-origin-value'
  | 'allow-origin-mismatch'
  | 'invalid-allow-credentials'
  | 'preflight-invalid-status'
  | 'preflight-redirect'
  | 'invalid-allow-methods'
  | 'invalid-allow-headers'
  | 'method-not-allowed'
  | 'header-not-allowed'
  | 'redirect-contains-credentials'
  | 'cors-disabled-scheme'

/** One CORS failure: its kind, whether the preflight answer caused it, and the value Chromium quotes. */
export interface CorsError {
  readonly kind: CorsErrorKind
  /** `true` when the preflight answer failed the access check (Chromium's `kPreflight...` errors). */
  readonly preflight: boolean
  /** The quoted value: the header value, the method or the header name, depending on the kind. */
  readonly hint?: string
  /**
   * For `header-not-allowed`: every refused header (lowercase, sorted). Chromium names one of
   * them in its message, picked in an internal hash order that cannot be promised; `hint` is
   * the first of these, the fix lists them all.
   */
  readonly headers?: readonly string[]
}

/**
 * What started the request. Chromium names it in the message (`Access to fetch at`, `Access to
 * XMLHttpRequest at`, and `Access to resource at` for an EventSource, measured in Chromium 156),
 * adds the credentials hint for XMLHttpRequest only, and the "valid value" hint for fetch only.
 */
export type CorsInitiator = 'fetch' | 'XMLHttpRequest' | 'EventSource'

/**
 * The word Chromium prints after `Access to` for a request from `initiator`.
 *
 * @example
 * initiatorWord('EventSource') // 'resource'
 */
export function initiatorWord(initiator: CorsInitiator): string {
  return initiator === 'EventSource' ? 'resource' : initiator
}

/** Input of {@link chromiumCorsMessage}. */
export interface ChromiumCorsMessageInput {
  /** The URL that was requested, serialized as the browser does (`new URL(url).href`). */
  readonly url: string
  /** The page's origin serialization (`null` for an opaque origin). */
  readonly origin: string
  readonly error: CorsError
  /** @default 'fetch' */
  readonly initiator?: CorsInitiator
  /**
   * The URL the script asked for, when redirects led to `url`: Chromium then writes
   * `at '<url>' (redirected from '<first url>')`.
   */
  readonly redirectedFrom?: string
}

/** Chromium's prefix for errors of the preflight answer's own access check (`IsPreflightError`). */
const PREFLIGHT_PREFIX = "Response to preflight request doesn't pass access control check: "

/**
 * Appended by Chromium 156 to the texts about an unusable `Access-Control-Allow-Origin` value,
 * for fetch only: XMLHttpRequest's message ends at the value (both checked in Chromium 156).
 */
const VALID_VALUE_HINT = ' Have the server send the header with a valid value.'

/** The schemes Chromium 156 lists as CORS-enabled, in its order (checked with a redirect to `ftp:`). */
const CORS_ENABLED_SCHEMES =
  'chrome, chrome-experimental-site-token-provider, chrome-extension, chrome-untrusted, data, http, https, isolated-app'

/** Appended for XMLHttpRequest to the credentials texts. */
const XHR_CREDENTIALS_HINT =
  ' The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.'

/** The kinds Chromium reports with the preflight prefix when the preflight answer caused them. */
const ACCESS_CHECK_KINDS = new Set<CorsErrorKind>([
  'missing-allow-origin',
  'wildcard-origin-with-credentials',
  'multiple-allow-origin-values',
  'invalid-allow-origin-value',
  'allow-origin-mismatch',
  'invalid-allow-credentials',
  'preflight-invalid-status',
  'preflight-redirect',
])

/**
 * The text after `has been blocked by CORS policy: `, including the preflight prefix where
 * Chromium puts one.
 *
 * @example
 * corsErrorText({ kind: 'method-not-allowed', preflight: true, hint: 'PUT' })
 * // 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.'
 */
export function corsErrorText(error: CorsError, initiator: CorsInitiator = 'fetch'): string {
  const hint = encodeHint(error.hint ?? '')
  const xhr = initiator === 'XMLHttpRequest'
  const validValue = initiator === 'fetch' ? VALID_VALUE_HINT : ''
  const prefix = error.preflight && ACCESS_CHECK_KINDS.has(error.kind) ? PREFLIGHT_PREFIX : ''
  switch (error.kind) {
    case 'missing-allow-origin':
      return `${prefix}No 'Access-Control-Allow-Origin' header is present on the requested resource.`
    case 'wildcard-origin-with-credentials':
      return `${prefix}The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.${xhr ? XHR_CREDENTIALS_HINT : ''}`
    case 'multiple-allow-origin-values':
      return `${prefix}The 'Access-Control-Allow-Origin' header contains multiple values '${hint}', but only one is allowed.${validValue}`
    case 'invalid-allow-origin-value':
      return `${prefix}The 'Access-Control-Allow-Origin' header contains the invalid value '${hint}'.${validValue}`
    case 'allow-origin-mismatch':
      return `${prefix}The 'Access-Control-Allow-Origin' header has a value '${hint}' that is not equal to the supplied origin.${validValue}`
    case 'invalid-allow-credentials':
      return `${prefix}The value of the 'Access-Control-Allow-Credentials' header in the response is '${hint}' which must be 'true' when the request's credentials mode is 'include'.${xhr ? XHR_CREDENTIALS_HINT : ''}`
    case 'preflight-invalid-status':
      return `${prefix}It does not have HTTP ok status.`
    case 'preflight-redirect':
      return `${prefix}Redirect is not allowed for a preflight request.`
    case 'invalid-allow-methods':
      return 'Cannot parse Access-Control-Allow-Methods response header field in preflight response.'
    case 'invalid-allow-headers':
      return 'Cannot parse Access-Control-Allow-Headers response header field in preflight response.'
    case 'method-not-allowed':
      return `Method ${hint} is not allowed by Access-Control-Allow-Methods in preflight response.`
    case 'header-not-allowed':
      return `Request header field ${hint} is not allowed by Access-Control-Allow-Headers in preflight response.`
    case 'redirect-contains-credentials':
      return `Redirect location '${hint}' contains a username and password, which is disallowed for cross-origin requests.`
    case 'cors-disabled-scheme':
      return `Cross origin requests are only supported for protocol schemes: ${CORS_ENABLED_SCHEMES}.`
  }
}

/**
 * The quoted value as Chromium prints it (`EncodeHint` in Blink's cors_error_string.cc):
 * printable ASCII as is, anything else as `\uXXXX` (uppercase hex, one per UTF-16 unit).
 */
function encodeHint(hint: string): string {
  let encoded = ''
  for (let i = 0; i < hint.length; i++) {
    const code = hint.charCodeAt(i)
    encoded +=
      code >= 0x20 && code <= 0x7e ? hint[i] : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`
  }
  return encoded
}

/**
 * Chromium's full console line for a blocked request:
 * `Access to fetch at '<url>' from origin '<origin>' has been blocked by CORS policy: <text>`.
 *
 * @example
 * chromiumCorsMessage({ url: 'http://localhost:3000/users', origin: 'http://localhost:5173', error: { kind: 'missing-allow-origin', preflight: false } })
 */
export function chromiumCorsMessage(input: ChromiumCorsMessageInput): string {
  const initiator = input.initiator ?? 'fetch'
  const redirected =
    input.redirectedFrom !== undefined && input.redirectedFrom !== input.url
      ? `(redirected from '${input.redirectedFrom}') `
      : ''
  return `Access to ${initiatorWord(initiator)} at '${input.url}' ${redirected}from origin '${input.origin}' has been blocked by CORS policy: ${corsErrorText(input.error, initiator)}`
}

/**
 * What the script gets when it asks for a forbidden method (`CONNECT`, `TRACE`, `TRACK`, any
 * case; Fetch standard §2.2.1): fetch throws a TypeError and XMLHttpRequest's `open()` a
 * SecurityError, before anything is sent and without a console CORS line. The text is
 * `String(error)` in Chromium 156; the method is quoted as the script wrote it.
 *
 * @example
 * forbiddenMethodError('TRACE')
 * // "TypeError: Failed to execute 'fetch' on 'Window': 'TRACE' HTTP method is unsupported."
 */
export function forbiddenMethodError(method: string, initiator: CorsInitiator = 'fetch'): string {
  return initiator === 'XMLHttpRequest'
    ? `SecurityError: Failed to execute 'open' on 'XMLHttpRequest': '${method}' HTTP method is unsupported.`
    : `TypeError: Failed to execute 'fetch' on 'Window': '${method}' HTTP method is unsupported.`
}
