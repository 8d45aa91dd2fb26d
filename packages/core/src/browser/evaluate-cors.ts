import { getHeader, type HeadersInput } from '../http/header-list.js'
import { isSameOrigin, originOf, serializeOrigin } from '../http/parse-origin.js'
import {
  type CorsError,
  type CorsInitiator,
  chromiumCorsMessage,
  forbiddenMethodError,
} from './chromium-messages.js'
import {
  type ClassifyRequestInput,
  classifyRequest,
  isSafelistedMethod,
  type PreflightReason,
} from './classify-request.js'
import { AUTHORIZATION_WILDCARD_FIX, corsFix, FORBIDDEN_METHOD_FIX } from './cors-fix.js'
import { parseHeaderListValues } from './header-list-values.js'
import { REDIRECT_STATUSES } from './redirect-step.js'
import { isForbiddenMethod } from './request-header-rules.js'
import { readableResponseHeaders } from './response-header-rules.js'

/** The request a page's script makes: where, from which origin, how. */
export interface CorsRequestInput extends ClassifyRequestInput {
  /** The URL requested. */
  readonly url: string | URL
  /** The page's origin (`Origin` header value; `'null'` for an opaque origin). */
  readonly origin: string
  /**
   * The request's credentials mode; only `'include'` changes the checks.
   * @default 'same-origin' (fetch's default)
   */
  readonly credentials?: RequestCredentials
  /**
   * What made the request; Chromium words the message after it.
   * @default 'fetch'
   */
  readonly initiator?: CorsInitiator
}

/** A response as the browser received it. */
export interface CorsResponseInput {
  readonly status: number
  readonly headers: HeadersInput
}

/** The answer to the preflight. */
export interface CorsPreflightResponseInput extends CorsResponseInput {
  /** The preflight was answered with a redirect (a 3xx with `Location` also counts). */
  readonly redirected?: boolean
}

/** The browser's decision about a cross-origin request, in its own words. */
export interface CorsVerdict {
  /** Whether the script may read the response. */
  readonly allowed: boolean
  /** Whether the browser sends a preflight first. */
  readonly preflight: boolean
  /** Which answer failed the check (when not allowed). */
  readonly stage?: 'preflight' | 'response'
  /** Chromium's full console text (when a CORS check blocked the request). */
  readonly message?: string
  /**
   * The exception the script gets before anything is sent, as `String(error)`: set for a
   * forbidden method (`CONNECT`, `TRACE`, `TRACK`), where there is no CORS message at all.
   */
  readonly scriptError?: string
  /** One line saying what to change; also set on an allowed request that relies on a deprecated rule. */
  readonly fix?: string
  /** The failure, machine-readable (when not allowed). */
  readonly error?: CorsError
  /** Why a preflight is sent (empty for a simple request). */
  readonly reasons: readonly PreflightReason[]
  /**
   * The response header names the script can read (lowercase, sorted), set when a response was
   * given and is allowed; see `readableResponseHeaders`.
   */
  readonly readableHeaders?: readonly string[]
}

/**
 * The CORS check (Fetch standard §4.9 "CORS check"), in Chromium's order (`CheckAccess` in
 * services/network/public/cpp/cors/cors.cc): the allow-origin value first, then credentials.
 */
export function checkAccess(
  headers: HeadersInput,
  origin: string,
  includeCredentials: boolean,
  preflight: boolean,
): CorsError | undefined {
  // Step 1: "Let origin be the result of getting `Access-Control-Allow-Origin`" (lines joined by ", ", trimmed).
  const allowOrigin = getHeader(headers, 'access-control-allow-origin')
  // Step 3: `*` passes unless the credentials mode is "include".
  if (allowOrigin === '*') {
    return includeCredentials ? { kind: 'wildcard-origin-with-credentials', preflight } : undefined
  }
  // Step 2: "If origin is null, then return failure."
  if (allowOrigin === undefined) return { kind: 'missing-allow-origin', preflight }
  // Step 4: "If the result of byte-serializing a request origin with request is not origin, then return failure."
  if (allowOrigin !== origin) {
    // Chromium compares the strings, then explains: a space or comma means several values
    // (two header lines arrive joined by ", "), `null` is a mismatch, a non-URL is invalid.
    if (/[ ,]/.test(allowOrigin))
      return { kind: 'multiple-allow-origin-values', preflight, hint: allowOrigin }
    if (allowOrigin !== 'null' && !URL.canParse(allowOrigin)) {
      return { kind: 'invalid-allow-origin-value', preflight, hint: allowOrigin }
    }
    return { kind: 'allow-origin-mismatch', preflight, hint: allowOrigin }
  }
  // Step 5: without credentials, success; steps 6-7: with them, `Access-Control-Allow-Credentials` must be `true`.
  if (includeCredentials) {
    // Case-sensitive: `True` fails (Fetch standard §3.2.3, checked in Chromium 156).
    const allowCredentials = getHeader(headers, 'access-control-allow-credentials')
    if (allowCredentials !== 'true') {
      return { kind: 'invalid-allow-credentials', preflight, hint: allowCredentials ?? '' }
    }
  }
  return undefined
}

/** The result of checking a preflight answer: the failure, or whether `*` let Authorization through. */
export interface PreflightOutcome {
  readonly error?: CorsError
  readonly authorizationViaWildcard: boolean
}

function refused(error: CorsError): PreflightOutcome {
  return { error, authorizationViaWildcard: false }
}

/**
 * Checks the preflight answer in Chromium's order (verified in Chromium 156): redirect, access
 * check, ok status, Allow-Methods and Allow-Headers syntax, method, then headers. Several
 * disallowed headers are all listed in the error; the message names the first in sorted order
 * (Chromium names one of them, picked in an internal hash order that cannot be promised).
 */
export function checkPreflight(
  answer: CorsPreflightResponseInput,
  origin: string,
  method: string,
  unsafeHeaderNames: readonly string[],
  include: boolean,
): PreflightOutcome {
  const redirected =
    answer.redirected === true ||
    (REDIRECT_STATUSES.has(answer.status) && getHeader(answer.headers, 'location') !== undefined)
  if (redirected) return refused({ kind: 'preflight-redirect', preflight: true })
  const access = checkAccess(answer.headers, origin, include, true)
  if (access !== undefined) return refused(access)
  if (answer.status < 200 || answer.status > 299) {
    return refused({ kind: 'preflight-invalid-status', preflight: true })
  }
  // Fetch §4.8 "CORS-preflight fetch" steps 7.1-7.3: extract both lists; either unparsable is a network error.
  const methods = parseHeaderListValues(getHeader(answer.headers, 'access-control-allow-methods'))
  if (methods === null) return refused({ kind: 'invalid-allow-methods', preflight: true })
  const headerList = parseHeaderListValues(getHeader(answer.headers, 'access-control-allow-headers'))
  if (headerList === null) return refused({ kind: 'invalid-allow-headers', preflight: true })
  // `*` is a wildcard only for requests without credentials (Fetch standard §4.8 steps 7.5-7.7).
  const methodAllowed =
    methods.includes(method) || isSafelistedMethod(method) || (!include && methods.includes('*'))
  if (!methodAllowed) return refused({ kind: 'method-not-allowed', preflight: true, hint: method })
  const allowedHeaders = new Set(headerList.map((name) => name.toLowerCase()))
  const headerWildcard = !include && allowedHeaders.has('*')
  let authorizationViaWildcard = false
  const refusedHeaders: string[] = []
  for (const name of unsafeHeaderNames) {
    if (allowedHeaders.has(name)) continue
    if (headerWildcard && name !== 'authorization') continue
    if (headerWildcard) {
      // The standard says `*` never covers Authorization; Chromium 156 still lets it
      // through and only files a deprecation issue, so the request works today.
      authorizationViaWildcard = true
      continue
    }
    refusedHeaders.push(name)
  }
  if (refusedHeaders.length > 0) {
    // unsafeHeaderNames is sorted, so the named one is the first in sorted order: Chromium names
    // one of them too, in an order that cannot be promised (checked in Chromium 156: x-c of x-a,
    // x-b and x-c), so the message names one and the error and the fix carry them all.
    return refused({
      kind: 'header-not-allowed',
      preflight: true,
      hint: refusedHeaders[0],
      headers: refusedHeaders,
    })
  }
  return { authorizationViaWildcard }
}

/** A URL as the browser serializes it (`new URL(url).href`); an unparsable string stays as written. */
export function serializeUrl(url: string | URL): string {
  if (typeof url !== 'string') return url.href
  return URL.canParse(url) ? new URL(url).href : url
}

/**
 * Predicts what Chromium does with a request and its answers: whether it preflights, whether
 * the script may read the response, and if not, Chromium's exact console message and a fix.
 * Same-origin requests are always allowed. An answer left out is not checked, so the function
 * also checks a single stage (the preflight answer alone, or the response alone).
 *
 * @example
 * evaluateCors(
 *   { url: 'http://localhost:3000/users', origin: 'http://localhost:5173', method: 'PUT' },
 *   { status: 204, headers: { 'access-control-allow-origin': '*' } },
 * )
 * // { allowed: false, preflight: true, stage: 'preflight', message: "Access to fetch at ... Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.", ... }
 */
export function evaluateCors(
  request: CorsRequestInput,
  preflightResponse?: CorsPreflightResponseInput,
  response?: CorsResponseInput,
): CorsVerdict {
  // The method check comes first, for same-origin calls too: fetch and XMLHttpRequest's open()
  // throw before a request exists (checked in Chromium 156), so there is no preflight and no CORS text.
  if (isForbiddenMethod(request.method)) {
    return {
      allowed: false,
      preflight: false,
      scriptError: forbiddenMethodError(request.method, request.initiator),
      fix: FORBIDDEN_METHOD_FIX,
      reasons: [],
    }
  }
  if (isSameOrigin(request.url, request.origin)) {
    const readable =
      response === undefined
        ? {}
        : { readableHeaders: readableResponseHeaders(response.headers, { sameOrigin: true }) }
    return { allowed: true, preflight: false, reasons: [], ...readable }
  }
  const classification = classifyRequest(request)
  const preflight = classification.kind === 'preflight'
  const parsedOrigin = originOf(request.origin)
  const origin = parsedOrigin === null ? request.origin : serializeOrigin(parsedOrigin)
  const include = request.credentials === 'include'
  const blocked = (stage: 'preflight' | 'response', error: CorsError, status: number): CorsVerdict => ({
    allowed: false,
    preflight,
    stage,
    message: chromiumCorsMessage({
      url: serializeUrl(request.url),
      origin,
      error,
      initiator: request.initiator,
    }),
    fix: corsFix(error, { origin, status }),
    error,
    reasons: classification.reasons,
  })

  let authorizationViaWildcard = false
  if (preflight && preflightResponse !== undefined) {
    const outcome = checkPreflight(
      preflightResponse,
      origin,
      classification.method,
      classification.unsafeHeaderNames,
      include,
    )
    if (outcome.error !== undefined) return blocked('preflight', outcome.error, preflightResponse.status)
    authorizationViaWildcard = outcome.authorizationViaWildcard
  }
  if (response !== undefined) {
    const error = checkAccess(response.headers, origin, include, false)
    if (error !== undefined) return blocked('response', error, response.status)
  }
  const readable =
    response === undefined
      ? {}
      : { readableHeaders: readableResponseHeaders(response.headers, { credentials: request.credentials }) }
  return authorizationViaWildcard
    ? {
        allowed: true,
        preflight,
        fix: AUTHORIZATION_WILDCARD_FIX,
        reasons: classification.reasons,
        ...readable,
      }
    : { allowed: true, preflight, reasons: classification.reasons, ...readable }
}
