import { type HeadersInput, headerEntries, trimHttpWhitespace } from '../http/header-list.js'
import { normalizeMethod } from '../http/method.js'
import type { CorsInitiator } from './chromium-messages.js'
import { headersWithBody, isStreamBody, type RequestBodyInput } from './request-body.js'
import {
  isForbiddenRequestHeader,
  SAFELISTED_TOTAL_MAX,
  SAFELISTED_VALUE_MAX,
  type UnsafeHeaderCause,
  unsafeHeaderCause,
} from './request-header-rules.js'

/** A request as a page's script would make it with `fetch` or `XMLHttpRequest`. */
export interface ClassifyRequestInput {
  /** The method the script passed (`'patch'`, `'delete'`...), before the browser normalizes it. */
  readonly method: string
  /**
   * Headers the script set; several values of one name are judged combined (`a, b`), as the
   * browser does. Forbidden ones (Cookie, Host, `Sec-*`...) are ignored, as the browser drops them.
   */
  readonly headers?: HeadersInput
  /** The request's credentials mode; it does not change whether a preflight is sent, only how it is checked. */
  readonly credentials?: RequestCredentials
  /**
   * The body the script passes: a `Blob`'s type, a string's, `URLSearchParams`' or
   * `FormData`'s becomes the `Content-Type` when the script set none (so
   * `new Blob([], { type: 'application/json' })` is preflighted); a `ReadableStream` always is.
   */
  readonly body?: RequestBodyInput | null
  /** The body is a `ReadableStream` (a streaming upload); implied by a `ReadableStream` `body`. */
  readonly hasReadableStreamBody?: boolean
  /** An `XMLHttpRequest.upload` listener is registered. */
  readonly hasUploadListeners?: boolean
  /** Force a preflight, as the Fetch standard's "use-CORS-preflight flag" does. */
  readonly forcePreflight?: boolean
  /**
   * What makes the request; XMLHttpRequest rewrites a script-set `charset` to `UTF-8` for a string body.
   * @default 'fetch'
   */
  readonly initiator?: CorsInitiator
}

/** Why a request is preflighted, in words a user understands. */
export interface PreflightReason {
  /** Machine-readable cause. */
  readonly code:
    | 'method'
    | 'header'
    | 'header-too-long'
    | 'header-value'
    | 'content-type'
    | 'range'
    | 'client-hint'
    | 'safelisted-total'
    | 'readable-stream-body'
    | 'upload-listeners'
    | 'forced'
  /** The header concerned (lowercase), for header causes. */
  readonly header?: string
  /** One sentence, e.g. `the header x-foo is not CORS-safelisted`. */
  readonly message: string
}

/** How the browser will send a cross-origin request. */
export interface RequestClassification {
  /** `simple`: sent directly; `preflight`: an OPTIONS preflight goes first. */
  readonly kind: 'simple' | 'preflight'
  /** Why a preflight is needed (empty for a simple request). */
  readonly reasons: readonly PreflightReason[]
  /** Lowercased, sorted, unique names, as the browser lists them in `Access-Control-Request-Headers`. */
  readonly unsafeHeaderNames: readonly string[]
  /** The method as the browser sends it (Fetch standard §2.2.1 "normalize a method"). */
  readonly method: string
  /** Headers the browser drops because a script may not set them (lowercase, sorted, unique). */
  readonly forbiddenHeaderNames: readonly string[]
}

/**
 * The request's headers as the browser holds them: one value per name, the script's values
 * for a name trimmed and joined by `, ` in order (Fetch standard §2.2.2 "append" combines,
 * "get" reads the combined value), names lowercased, first appearance first. The CORS rules
 * judge the combined value, length limits included (checked in Chromium 156: two
 * `Content-Type: text/plain` lines are preflighted, two short `Accept` lines are not).
 *
 * @example
 * combinedHeaders([['Accept', 'a'], ['accept', ' b ']]) // [['accept', 'a, b']]
 */
export function combinedHeaders(headers: HeadersInput | undefined): Array<readonly [string, string]> {
  const combined = new Map<string, string>()
  for (const [name, rawValue] of headerEntries(headers)) {
    const value = trimHttpWhitespace(rawValue)
    const previous = combined.get(name)
    combined.set(name, previous === undefined ? value : `${previous}, ${value}`)
  }
  return [...combined]
}

/** CORS-safelisted methods (Fetch standard §2.2.1); compared case-sensitively after normalization. */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST'])

/** Whether a (normalized) method is sent without a preflight. */
export function isSafelistedMethod(method: string): boolean {
  return SAFELISTED_METHODS.has(method)
}

function methodReason(method: string): PreflightReason {
  const hint =
    method !== method.toUpperCase()
      ? ` (the browser uppercases only DELETE, GET, HEAD, OPTIONS, POST and PUT, so \`${method}\` is sent as written and compared case-sensitively)`
      : ''
  return {
    code: 'method',
    message: `the method ${method} is not GET, HEAD or POST, the only methods sent without a preflight${hint}`,
  }
}

function headerReason(
  name: string,
  cause: Exclude<UnsafeHeaderCause, undefined>,
  value: string,
): PreflightReason {
  switch (cause) {
    case 'name':
      return {
        code: 'header',
        header: name,
        message: `the header ${name} is not CORS-safelisted (only Accept, Accept-Language, Content-Language, Content-Type, Range and Chromium's client hints DPR, Width, Viewport-Width, Device-Memory, RTT, Downlink, ECT and Save-Data can be sent without a preflight)`,
      }
    case 'too-long':
      return {
        code: 'header-too-long',
        header: name,
        message: `the ${name} value is ${value.length} bytes long, over the ${SAFELISTED_VALUE_MAX} bytes a safelisted header may have`,
      }
    case 'content-type':
      return {
        code: 'content-type',
        header: name,
        message: `Content-Type '${value}' is not application/x-www-form-urlencoded, multipart/form-data or text/plain`,
      }
    case 'range':
      return {
        code: 'range',
        header: name,
        message: `Range '${value}' is not a single 'bytes=N-' or 'bytes=N-M' range`,
      }
    case 'client-hint':
      return {
        code: 'client-hint',
        header: name,
        message: `the ${name} value '${value}' does not parse as Chromium's client hint (a decimal for DPR, Device-Memory and Downlink, an integer for Width, Viewport-Width and RTT, slow-2g/2g/3g/4g for ECT, on for Save-Data), so it is not safelisted`,
      }
    default:
      return {
        code: 'header-value',
        header: name,
        message: `the ${name} value '${value}' contains characters a safelisted header may not contain`,
      }
  }
}

/**
 * Tells whether the browser sends a cross-origin request directly or preflights it, and why,
 * following the Fetch standard rather than the short version: "CORS-safelisted method",
 * "CORS-safelisted request-header" (byte sets, MIME essence, single byte ranges, 128 bytes
 * per value) and "CORS-unsafe request-header names" (1024 bytes in total), §2.2.1-2.2.2 and
 * §4.1 "main fetch" step 5 for the preflight conditions.
 *
 * @example
 * classifyRequest({ method: 'POST', headers: { 'Content-Type': 'application/json' } })
 * // { kind: 'preflight', unsafeHeaderNames: ['content-type'], method: 'POST', reasons: [...] }
 */
export function classifyRequest(input: ClassifyRequestInput): RequestClassification {
  const method = normalizeMethod(input.method)
  const reasons: PreflightReason[] = []
  if (!isSafelistedMethod(method)) reasons.push(methodReason(method))

  const unsafe = new Set<string>()
  const forbidden = new Set<string>()
  const potentiallyUnsafe: string[] = []
  let safelistedTotal = 0
  for (const [name, value] of combinedHeaders(headersWithBody(input.headers, input.body, input.initiator))) {
    if (isForbiddenRequestHeader(name, value)) {
      forbidden.add(name)
      continue
    }
    const cause = unsafeHeaderCause(name, value)
    if (cause === undefined) {
      potentiallyUnsafe.push(name)
      safelistedTotal += value.length
    } else if (!unsafe.has(name)) {
      unsafe.add(name)
      reasons.push(headerReason(name, cause, value))
    }
  }
  if (safelistedTotal > SAFELISTED_TOTAL_MAX) {
    for (const name of potentiallyUnsafe) unsafe.add(name)
    reasons.push({
      code: 'safelisted-total',
      message: `the safelisted header values add up to ${safelistedTotal} bytes, over the ${SAFELISTED_TOTAL_MAX}-byte limit`,
    })
  }
  if (input.hasReadableStreamBody === true || isStreamBody(input.body)) {
    reasons.push({
      code: 'readable-stream-body',
      message: 'the body is a ReadableStream (streaming uploads are always preflighted)',
    })
  }
  if (input.hasUploadListeners === true) {
    reasons.push({ code: 'upload-listeners', message: 'an XMLHttpRequest.upload listener is registered' })
  }
  if (input.forcePreflight === true) {
    reasons.push({ code: 'forced', message: 'the request asked for a preflight (use-CORS-preflight flag)' })
  }
  return {
    kind: reasons.length > 0 ? 'preflight' : 'simple',
    reasons,
    unsafeHeaderNames: [...unsafe].sort(),
    method,
    forbiddenHeaderNames: [...forbidden].sort(),
  }
}
