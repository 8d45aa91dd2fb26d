import { parseOrigin } from './parse-origin.js'

/** 127.0.0.0/8 in dotted-quad form, as the URL parser normalizes every IPv4 spelling. */
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/**
 * The default CORS origin rule: an `http:` or `https:` origin on this machine, i.e. host
 * `localhost`, any `*.localhost` (RFC 6761 §6.3 reserves the name for loopback), an address
 * in 127.0.0.0/8, or `[::1]`, with any port. `null` (sandboxed frames, `data:` URLs) and every
 * other origin are refused: unlike the `cors` package's `*`, a page on the internet cannot read
 * a developer's local API through the dev server.
 *
 * @example
 * isLoopbackOrigin('http://localhost:5173') // true
 * isLoopbackOrigin('http://app.localhost')  // true
 * isLoopbackOrigin('https://example.com')   // false
 */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false
  const parsed = parseOrigin(origin)
  if (parsed === null || parsed.opaque) return false
  if (parsed.scheme !== 'http' && parsed.scheme !== 'https') return false
  const host = parsed.host
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || IPV4_LOOPBACK.test(host)
}
