import { getHeader, type HeadersInput } from '../http/header-list.js'
import { isSameOrigin } from '../http/parse-origin.js'
import { type CorsResponseInput, type CorsVerdict, evaluateCors } from './evaluate-cors.js'

/** A request as a server received it, and the answer about to go back. */
export interface DiagnoseResponseInput {
  /** The URL the browser requested: the server's own origin (scheme + Host) and the path. */
  readonly url: string | URL
  /** The method as received. */
  readonly method: string
  /** The request headers as received (`Origin`, `Access-Control-Request-*`, `Cookie`...). */
  readonly requestHeaders: HeadersInput
  /** The answer (for a preflight, the preflight answer). */
  readonly response: CorsResponseInput
}

/** A verdict about a cross-origin request a server saw, with what it could and could not know. */
export interface CorsDiagnosis extends CorsVerdict {
  /**
   * The request's credentials mode as far as a server can tell: `include` when it carries a
   * `Cookie` (a cross-origin request carries cookies only in that mode); otherwise `unknown`
   * (the mode itself is never sent), and the checks assume no credentials, so only certain
   * blocks are reported.
   */
  readonly credentials: 'include' | 'unknown'
  /** A stable key for the cause (stage, error and quoted value), to log each cause once. */
  readonly cause: string
}

/**
 * A value no CORS-safelisted header accepts (a control byte), so every name listed in
 * `Access-Control-Request-Headers` stays in the unsafe list when the preflight is re-checked:
 * the browser listed exactly the headers it found unsafe.
 */
const ALWAYS_UNSAFE = '\u0000'

/**
 * Tells, from the server side, whether the browser will let the page read this answer:
 * `undefined` when the request is not cross-origin (no `Origin`, or the server's own origin)
 * or not in CORS mode (`Sec-Fetch-Mode` other than `cors`: a navigation, `no-cors`, a script);
 * otherwise `evaluateCors`'s verdict, in Chromium's words with the fix. A preflight is checked
 * against the method and headers it announces; an actual request against its answer only
 * (its preflight, if any, was checked when it passed). Only what a server can be sure of is
 * inferred: see {@link CorsDiagnosis.credentials}.
 *
 * @example
 * diagnoseResponse({
 *   url: 'http://localhost:5173/api/users',
 *   method: 'GET',
 *   requestHeaders: { origin: 'http://127.0.0.1:3000' },
 *   response: { status: 200, headers: { 'content-type': 'application/json' } },
 * })?.message // "Access to fetch at 'http://localhost:5173/api/users' from origin 'http://127.0.0.1:3000' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource."
 */
export function diagnoseResponse(input: DiagnoseResponseInput): CorsDiagnosis | undefined {
  const origin = getHeader(input.requestHeaders, 'origin')
  if (origin === undefined || isSameOrigin(input.url, origin)) return undefined
  // A form post or a `no-cors` fetch also sends `Origin`, but the browser applies no CORS
  // check to it: its `Sec-Fetch-Mode` (W3C Fetch Metadata) says so, when the browser sends one.
  const mode = getHeader(input.requestHeaders, 'sec-fetch-mode')
  if (mode !== undefined && mode !== 'cors') return undefined
  const requestedMethod = getHeader(input.requestHeaders, 'access-control-request-method')
  let verdict: CorsVerdict
  let credentials: 'include' | 'unknown' = 'unknown'
  if (input.method === 'OPTIONS' && requestedMethod !== undefined) {
    const requested = getHeader(input.requestHeaders, 'access-control-request-headers') ?? ''
    const headers = requested
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name): [string, string] => [name, ALWAYS_UNSAFE])
    verdict = evaluateCors(
      { url: input.url, origin, method: requestedMethod, headers, forcePreflight: true },
      input.response,
    )
  } else {
    if (getHeader(input.requestHeaders, 'cookie') !== undefined) credentials = 'include'
    // The headers a server sees include the browser's own (User-Agent, Priority, Sec-*), so
    // they say nothing certain about a preflight: only the answer is checked.
    verdict = evaluateCors(
      {
        url: input.url,
        origin,
        method: input.method,
        credentials: credentials === 'include' ? 'include' : 'omit',
      },
      undefined,
      input.response,
    )
  }
  const error = verdict.error
  const cause = error === undefined ? 'allowed' : `${verdict.stage}:${error.kind}:${error.hint ?? ''}`
  return { ...verdict, credentials, cause }
}
