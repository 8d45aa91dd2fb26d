/**
 * An opaque origin: what a sandboxed frame, a `data:` URL or a redirect chain that crossed
 * origins sends as `Origin: null` (HTML standard §7.1.1 "Origins"). It is same-origin with
 * nothing, not even another `null`.
 */
export interface OpaqueOrigin {
  readonly opaque: true
}

/** A tuple origin (HTML standard §7.1.1): scheme, host and port. */
export interface TupleOrigin {
  readonly opaque: false
  /** Lowercase scheme without `:`, e.g. `https`. */
  readonly scheme: string
  /** Lowercase host; IPv6 addresses in brackets (`[::1]`), IDNs in punycode. */
  readonly host: string
  /** The port, with the scheme's default filled in (80 for http and ws, 443 for https and wss); `null` for schemes without a default. */
  readonly port: number | null
}

/** A parsed `Origin` value. */
export type ParsedOrigin = OpaqueOrigin | TupleOrigin

/** The single opaque-origin marker `parseOrigin('null')` returns. */
export const OPAQUE_ORIGIN: OpaqueOrigin = Object.freeze({ opaque: true })

/** Default ports of the special schemes (URL standard §4.1, "special scheme"). */
const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 }

/**
 * The serialization an `Origin` header carries (RFC 6454 §7.1): `scheme "://" host [":" port]`,
 * nothing after it. The host part is validated by the URL parser below.
 */
const ORIGIN_SYNTAX = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(\[[0-9a-fA-F:.]+\]|[^/?#:@[\]\s\\]+)(?::(\d{1,5}))?$/

/**
 * Parses an `Origin` header value (or any origin serialization, e.g. a `cors.origin` entry).
 * `'null'` gives {@link OPAQUE_ORIGIN}; anything that is not exactly `scheme://host[:port]`
 * (a path, even `/`, a query, credentials, an invalid host or port) gives `null`.
 *
 * @example
 * parseOrigin('HTTP://LocalHost:80') // { opaque: false, scheme: 'http', host: 'localhost', port: 80 }
 */
export function parseOrigin(value: string): ParsedOrigin | null {
  if (value === 'null') return OPAQUE_ORIGIN
  const match = ORIGIN_SYNTAX.exec(value)
  if (match === null) return null
  const scheme = match[1]!.toLowerCase()
  const rawHost = match[2]!
  const rawPort = match[3]
  const explicitPort = rawPort === undefined ? null : Number(rawPort)
  if (explicitPort !== null && explicitPort > 65535) return null
  let host = rawHost.toLowerCase()
  const defaultPort = DEFAULT_PORTS[scheme]
  if (defaultPort !== undefined) {
    // The URL parser applies the host rules the browser applies (IPv4 forms such as
    // `127.1`, IPv6 compression, IDNA), so `Origin` values compare as the browser's do.
    try {
      host = new URL(`${scheme}://${rawHost}/`).hostname
    } catch {
      return null
    }
    if (host === '') return null
  }
  return Object.freeze({ opaque: false, scheme, host, port: explicitPort ?? defaultPort ?? null })
}

/**
 * The origin's serialization (HTML standard §7.1.1 "ASCII serialization of an origin"), as
 * `Origin` and `Access-Control-Allow-Origin` carry it: the default port is left out.
 *
 * @example
 * serializeOrigin(parseOrigin('https://example.test:443')!) // 'https://example.test'
 */
export function serializeOrigin(origin: ParsedOrigin): string {
  if (origin.opaque) return 'null'
  const base = `${origin.scheme}://${origin.host}`
  return origin.port === null || origin.port === DEFAULT_PORTS[origin.scheme]
    ? base
    : `${base}:${origin.port}`
}

/**
 * The origin of an origin string or of a URL (string or `URL`): `parseOrigin` first, then
 * the URL's own origin. `null` when neither parses. Non-special schemes (`file:`, `data:`,
 * `blob:` without a tuple inside) have opaque origins, as in the browser.
 *
 * @example
 * originOf('http://localhost:5173/src/main.ts') // { opaque: false, scheme: 'http', host: 'localhost', port: 5173 }
 */
export function originOf(input: string | URL): ParsedOrigin | null {
  if (typeof input === 'string') {
    const parsed = parseOrigin(input)
    if (parsed !== null) return parsed
  }
  let url: URL
  try {
    url = typeof input === 'string' ? new URL(input) : input
  } catch {
    return null
  }
  // `URL#origin` is 'null' for opaque origins, and a tuple serialization otherwise.
  return url.origin === 'null' ? OPAQUE_ORIGIN : parseOrigin(url.origin)
}

/**
 * Whether two origins or URLs are same origin (HTML standard §7.1.1): scheme, host and port
 * all equal, default ports filled in. Opaque or unparsable inputs are same-origin with nothing.
 *
 * @example
 * isSameOrigin('http://localhost/a', new URL('http://localhost:80/b')) // true
 * isSameOrigin('http://localhost:5173', 'http://127.0.0.1:5173') // false
 */
export function isSameOrigin(a: string | URL, b: string | URL): boolean {
  const left = originOf(a)
  const right = originOf(b)
  if (left === null || right === null || left.opaque || right.opaque) return false
  return left.scheme === right.scheme && left.host === right.host && left.port === right.port
}
