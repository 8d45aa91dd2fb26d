import { CorsDevProxyError } from './errors.js'
import { describeType, isPlainObject, quote } from './option-path.js'

/** A validated target. */
export interface ValidatedTarget {
  /** The target with an `http:`/`https:` scheme (a `ws:`/`wss:` target is converted). */
  url: URL
  /** Whether the user wrote a `ws:`/`wss:` scheme, which turns WebSocket forwarding on by default. */
  websocket: boolean
  /** A Unix domain socket to connect to instead of the URL's host and port (`{ socketPath }`). */
  socketPath?: string | undefined
}

/**
 * http-proxy's target object (what http-proxy-middleware's `target`, `router` and Vite's
 * `server.proxy` accept besides a string): `url.parse()`-style fields, or a Unix socket.
 *
 * @example
 * { protocol: 'https:', host: '127.0.0.1', port: 8004 }
 */
export interface TargetObject {
  /** `http:`, `https:`, `ws:` or `wss:` (the colon is optional here). @default 'http:' */
  protocol?: string
  /** Host name, with or without `:port` (http-proxy reads `host` as the name only). */
  host?: string
  /** Host name (wins over `host`). */
  hostname?: string
  /** Port; the scheme's default when absent. */
  port?: number | string
  /** Base path prepended upstream (`pathname`, or `path` as http-proxy reads it). */
  pathname?: string
  path?: string
  /** Connect to this Unix domain socket; `Host` stays `localhost` unless `changeOrigin: false`. */
  socketPath?: string
}

/** Fields of a target object we understand; the TLS ones (`ca`, `cert`...) are refused by name. */
const TARGET_OBJECT_FIELDS = new Set([
  'protocol',
  'host',
  'hostname',
  'port',
  'pathname',
  'path',
  'socketPath',
  'href',
])

/**
 * An http-proxy target object as a URL string (and socket path). The TLS client fields
 * (`key`, `cert`, `ca`, `pfx`...) are refused: undici's pool takes them per connection, and the
 * dev-server case they serve (a self-signed target) is `secure: false`.
 */
function fromTargetObject(
  value: Record<string, unknown>,
  option: string,
): { text: string; socketPath?: string } {
  const example = "{ protocol: 'http:', host: 'localhost', port: 3000 }"
  for (const key of Object.keys(value)) {
    if (!TARGET_OBJECT_FIELDS.has(key)) {
      throw new CorsDevProxyError(
        'INVALID_TARGET',
        option,
        `has ${quote(key)}, which a target object does not take here: it takes protocol, host, hostname, port, pathname and socketPath${
          ['key', 'cert', 'ca', 'pfx', 'passphrase', 'ciphers', 'secureProtocol'].includes(key)
            ? ' (TLS client options are not; for a self-signed target set `secure: false`)'
            : ''
        }`,
        example,
      )
    }
  }
  if (typeof value.href === 'string') return { text: value.href }
  const socketPath = value.socketPath
  if (socketPath !== undefined && (typeof socketPath !== 'string' || socketPath === '')) {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      option,
      `has a socketPath that is not a path string (${describeType(socketPath)})`,
      "{ socketPath: '/tmp/api.sock' }",
    )
  }
  const text = (field: string): string | undefined => {
    const v = value[field]
    if (v === undefined) return undefined
    if (typeof v === 'string' || (field === 'port' && typeof v === 'number')) return String(v)
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      option,
      `has a ${field} that is not a string (${describeType(v)})`,
      example,
    )
  }
  const rawProtocol = text('protocol') ?? 'http:'
  const protocol = rawProtocol.endsWith(':') ? rawProtocol : `${rawProtocol}:`
  let host = text('hostname') ?? text('host')
  if (host === undefined) {
    if (socketPath === undefined) {
      throw new CorsDevProxyError('INVALID_TARGET', option, 'has no `host`', example)
    }
    host = 'localhost'
  }
  const port = text('port')
  // A bare IPv6 literal gets its brackets; `host` may carry its port (`localhost:3000`), which an
  // explicit `port` replaces, as in http-proxy.
  const bracketed = host.split(':').length > 2 && !host.startsWith('[') ? `[${host}]` : host
  const authority = port === undefined ? bracketed : `${bracketed.replace(/:\d+$/, '')}:${port}`
  const path = text('pathname') ?? text('path') ?? ''
  return {
    text: `${protocol}//${authority}${path === '' || path.startsWith('/') ? path : `/${path}`}`,
    ...(socketPath === undefined ? {} : { socketPath: socketPath as string }),
  }
}

/**
 * The unspecified addresses: a server bound there listens on every interface, but is not an
 * address to connect to (Windows refuses it; elsewhere it is a loopback alias by accident).
 * Servers print `http://0.0.0.0:3000` and users paste it, so it is read as loopback.
 */
const UNSPECIFIED: Readonly<Record<string, string>> = Object.freeze({
  '0.0.0.0': '127.0.0.1',
  '[::]': '[::1]',
})

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
 * Accepted: an absolute `http:`, `https:`, `ws:` or `wss:` URL (a string or a `URL`), optionally
 * with a base path (prepended upstream), or http-proxy's target object (`{ protocol, host, port }`,
 * `{ socketPath }`, see {@link TargetObject}). The unspecified address (`0.0.0.0`, `[::]`) is
 * read as loopback (`127.0.0.1`, `[::1]`). Refused, with the fix in the message:
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
  if (value instanceof URL) return validateTarget(value.href, option)
  if (isPlainObject(value)) {
    const { text, socketPath } = fromTargetObject(value, option)
    const validated = validateTarget(text, option)
    return socketPath === undefined ? validated : { ...validated, socketPath }
  }
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
  const loopback = UNSPECIFIED[url.hostname]
  if (loopback !== undefined) url.hostname = loopback
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
