import { headerEntries, trimHttpWhitespace } from '../http/header-list.js'
import { HTTP_TOKEN } from '../http/http-token.js'
import type { BrowserCall } from './browser-call.js'
import { forbiddenMethodError } from './chromium-messages.js'
import { isSafelistedMethod } from './classify-request.js'
import { isStreamBody } from './request-body.js'
import { isForbiddenMethod } from './request-header-rules.js'

/** Chromium's prefix for every exception `fetch()` throws while building its `Request`. */
const FETCH_PREFIX = "TypeError: Failed to execute 'fetch' on 'Window': "

/** Whether a string is not a ByteString (a code unit above 0xFF): WebIDL refuses it before any step of the constructor runs. */
function notLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return true
  return false
}

/** A header value the Fetch standard refuses after trimming (§2.2 "header value": no NUL, LF or CR). */
const INVALID_VALUE_BYTE = /[\0\n\r]/

/**
 * The exception a page's script gets before any request exists, as `String(error)` in Chromium
 * 156 (each text measured, test/browser/sequence-cases-constructor.ts), or `undefined` when the
 * call may be made. fetch runs the Fetch standard's `new Request(input, init)` (§5.4) in the
 * order the web-platform-tests' request-error.js lists, and XMLHttpRequest its `open()` and
 * `setRequestHeader()` (XHR standard §3.5.1, §3.5.2), which throw SyntaxErrors and know no
 * `mode`, `cache`, `duplex` or URL-credentials rule (it sends such a URL, measured).
 *
 * @example
 * requestConstructorError({ url: 'http://api.test/', method: 'PUT', mode: 'no-cors' })
 * // "TypeError: Failed to execute 'fetch' on 'Window': 'PUT' is unsupported in no-cors mode."
 */
export function requestConstructorError(call: BrowserCall): string | undefined {
  const method = call.method ?? 'GET'
  const entries = headerEntries(call.headers)
  if (call.initiator === 'XMLHttpRequest') return xhrError(method, entries)
  // WebIDL: RequestInit's `headers` is a record of ByteStrings, converted before step 1.
  if (entries.some(([name, value]) => notLatin1(name) || notLatin1(value))) {
    return `${FETCH_PREFIX}Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.`
  }
  const url = String(call.url)
  // Step 5.2: parsing the URL failed.
  if (!URL.canParse(url)) return `${FETCH_PREFIX}Failed to parse URL from ${url}`
  const parsed = new URL(url)
  // Step 5.3: "If parsedURL includes credentials, then throw a TypeError."
  if (parsed.username !== '' || parsed.password !== '') {
    return `${FETCH_PREFIX}Request cannot be constructed from a URL that includes credentials: ${parsed.href}`
  }
  const mode = call.mode ?? 'cors'
  // Step 24: `navigate` is only for the HTML navigation algorithm.
  if (mode === 'navigate') {
    return `${FETCH_PREFIX}Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.`
  }
  // Step 29: only-if-cached could probe another origin's cache, so it needs same-origin mode.
  if (call.cache === 'only-if-cached' && mode !== 'same-origin') {
    return `${FETCH_PREFIX}'only-if-cached' can be set only with 'same-origin' mode`
  }
  // Step 33.2: "If method is not a method or method is a forbidden method, then throw a TypeError."
  if (!HTTP_TOKEN.test(method)) return `${FETCH_PREFIX}'${method}' is not a valid HTTP method.`
  if (isForbiddenMethod(method)) return forbiddenMethodError(method, 'fetch')
  // Step 35.1: a no-cors request may only use a CORS-safelisted method (after normalization, so `post` passes).
  if (mode === 'no-cors' && !isSafelistedMethod(method.toUpperCase())) {
    return `${FETCH_PREFIX}'${method}' is unsupported in no-cors mode.`
  }
  // Step 35 "fill" → "append" → "validate": a name must be a token, a trimmed value holds no NUL, LF or CR.
  if (entries.some(([name]) => !HTTP_TOKEN.test(name))) return `${FETCH_PREFIX}Invalid name`
  if (entries.some(([, value]) => INVALID_VALUE_BYTE.test(trimHttpWhitespace(value)))) {
    return `${FETCH_PREFIX}Invalid value`
  }
  const hasBody = call.body !== undefined && call.body !== null
  const upper = method.toUpperCase()
  // Step 36: "If ... body is non-null and request's method is `GET` or `HEAD`, then throw a TypeError."
  if (hasBody && (upper === 'GET' || upper === 'HEAD')) {
    return `${FETCH_PREFIX}Request with GET/HEAD method cannot have body.`
  }
  if (isStreamBody(call.body)) {
    // Step 41.1: a stream body needs `duplex: 'half'`.
    if (call.duplex !== 'half') {
      return `${FETCH_PREFIX}The \`duplex\` member must be specified for a request with a streaming body`
    }
    // Step 41.2: a stream body needs "same-origin" or "cors" mode (Chromium's text lacks a space).
    if (mode !== 'same-origin' && mode !== 'cors') {
      return `${FETCH_PREFIX}If request is made from ReadableStream, mode should be"same-origin" or "cors"`
    }
  }
  return undefined
}

/** XMLHttpRequest's `open()` (XHR standard §3.5.1 step 3-4) and `setRequestHeader()` (§3.5.2 step 3-4) checks. */
function xhrError(method: string, entries: readonly (readonly [string, string])[]): string | undefined {
  if (!HTTP_TOKEN.test(method)) {
    return `SyntaxError: Failed to execute 'open' on 'XMLHttpRequest': '${method}' is not a valid HTTP method.`
  }
  if (isForbiddenMethod(method)) return forbiddenMethodError(method, 'XMLHttpRequest')
  for (const [name, value] of entries) {
    if (!HTTP_TOKEN.test(name)) {
      return `SyntaxError: Failed to execute 'setRequestHeader' on 'XMLHttpRequest': '${name}' is not a valid HTTP header field name.`
    }
    if (INVALID_VALUE_BYTE.test(trimHttpWhitespace(value))) {
      return `SyntaxError: Failed to execute 'setRequestHeader' on 'XMLHttpRequest': '${value}' is not a valid HTTP header field value.`
    }
  }
  return undefined
}
