import { CorsDevProxyError } from './errors.js'
import { describeType, quote } from './option-path.js'

/** A validated target. */
export interface ValidatedTarget {
  /** The target with an `http:`/`https:` scheme (a `ws:`/`wss:` target is converted). */
  url: URL
  /** Whether the user wrote a `ws:`/`wss:` scheme, which turns WebSocket forwarding on by default. */
  websocket: boolean
}

const SCHEME_WITH_AUTHORITY = /^([a-z][a-z\d+.-]*):\/\//i
const SCHEME = /^([a-z][a-z\d+.-]*):/i
/** `http//localhost:3000`, `https:/localhost`, `ws:localhost`: one of our schemes with `:` or a `/` missing. */
const MISTYPED_SCHEME = /^(https?|wss?)(?::(?!\d)\/?|\/\/?)(?=[^/])/i
/** `localhost:3000`, `127.0.0.1:3000/v1`, `[::1]:3000`, or a bare host name: a URL without its scheme. */
const HOST_WITHOUT_SCHEME = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d+)?(?:\/|$)/i

const HTTP_SCHEMES: Readonly<Record<string, 'http:' | 'https:'>> = Object.freeze({
  'http:': 'http:',
  'https:': 'https:',
  'ws:': 'http:',
  'wss:': 'https:',
})

/**
 * Validates a route's `target` at construction and returns it as an http(s) URL.
 *
 * Accepted: an absolute `http:`, `https:`, `ws:` or `wss:` URL, optionally with a base path
 * (prepended upstream). Refused, with the fix in the message:
 * - not a string, empty, not a URL, or a host without scheme (`localhost:3000`) → INVALID_TARGET;
 * - credentials (`http://user:pass@host`): they would be sent to nobody, since fetch-style
 *   clients never turn URL credentials into `Authorization`; use `headers` → INVALID_TARGET;
 * - a query or fragment, which have no defined meaning when joined with request paths → INVALID_TARGET;
 * - any other scheme → UNSUPPORTED_SCHEME.
 *
 * A `ws:`/`wss:` target is the same server as `http:`/`https:` (RFC 6455 section 3: the
 * handshake is an HTTP request), so normal requests are forwarded to it over http(s).
 *
 * @example
 * validateTarget('ws://localhost:3000/v1', "routes['/socket'].target").url.href // 'http://localhost:3000/v1'
 */
export function validateTarget(value: unknown, option: string): ValidatedTarget {
  const example = "'http://localhost:3000'"
  if (typeof value !== 'string') {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      option,
      `must be a URL string, got ${describeType(value)}`,
      example,
    )
  }
  const text = value.trim()
  if (text === '') throw new CorsDevProxyError('INVALID_TARGET', option, 'is empty', example)
  const withAuthority = SCHEME_WITH_AUTHORITY.exec(text)
  if (!withAuthority) {
    // `http//host` and `http:/host` are a scheme mistyped, not a host called `http`.
    const mistyped = MISTYPED_SCHEME.exec(text)
    if (mistyped !== null) {
      const fixed = `${mistyped[1]}://${text.slice(mistyped[0].length)}`
      throw new CorsDevProxyError('INVALID_TARGET', option, `has a mistyped scheme`, suggestion(fixed))
    }
    if (HOST_WITHOUT_SCHEME.test(text)) {
      throw new CorsDevProxyError('INVALID_TARGET', option, `has no scheme`, suggestion(`http://${text}`))
    }
    const scheme = SCHEME.exec(text)?.[1]?.toLowerCase()
    if (scheme !== undefined && !Object.hasOwn(HTTP_SCHEMES, `${scheme}:`))
      throw unsupported(scheme, text, option)
    throw new CorsDevProxyError('INVALID_TARGET', option, `is not an absolute URL (${quote(text)})`, example)
  }
  const scheme = (withAuthority[1] as string).toLowerCase()
  const protocol = HTTP_SCHEMES[`${scheme}:`]
  if (protocol === undefined) throw unsupported(scheme, text, option)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new CorsDevProxyError('INVALID_TARGET', option, `is not a valid URL (${quote(text)})`, example)
  }
  if (url.username !== '' || url.password !== '') {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      option,
      'must not contain credentials (user:password@): send them as a header instead',
      `{ target: ${quote(`${url.protocol}//${url.host}${url.pathname}`)}, headers: { authorization: 'Basic <base64 of user:password>' } }`,
    )
  }
  if (url.href.includes('?') || url.href.includes('#')) {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      option,
      'must not have a query or fragment: the request path and query are appended to the target',
      quote(`${url.protocol}//${url.host}${url.pathname}`),
    )
  }
  const websocket = protocol !== url.protocol
  // Both are special schemes, so the protocol setter accepts the change (WHATWG URL, "scheme state").
  if (websocket) url.protocol = protocol
  return { url, websocket }
}

/** A corrected target, quoted, when it is itself a valid target; the placeholder otherwise. */
function suggestion(fixed: string): string {
  try {
    validateTarget(fixed, 'target')
    return quote(fixed)
  } catch {
    return "'http://localhost:3000'"
  }
}

function unsupported(scheme: string, text: string, option: string): CorsDevProxyError {
  return new CorsDevProxyError(
    'UNSUPPORTED_SCHEME',
    option,
    `is ${quote(text)}: ${scheme}: is not supported; use http:, https:, ws: or wss:`,
    "'http://localhost:3000'",
  )
}
