/**
 * A WebSocket URL's server is an HTTP server: the handshake is an HTTP/1.1 request on the same
 * host and port (RFC 6455 section 3: `ws:` is `http:`'s port 80, `wss:` is `https:`'s 443; section
 * 4.1: the opening handshake is an HTTP Upgrade request). These map one onto the other, once.
 */

/**
 * `ws:` → `http:`, `wss:` → `https:`; any other scheme is returned as it is.
 *
 * @example
 * httpScheme('wss:') // 'https:'
 */
export function httpScheme(protocol: string): string {
  return protocol === 'wss:' ? 'https:' : protocol === 'ws:' ? 'http:' : protocol
}

/**
 * The origin of the HTTP server a URL reaches: a `ws:`/`wss:` URL's is its handshake's `http:`/
 * `https:` origin (`ws://h:3000/x` → `http://h:3000`), any other URL's its own origin.
 *
 * @example
 * httpOrigin(new URL('wss://example.test/socket')) // 'https://example.test'
 */
export function httpOrigin(url: URL): string {
  const protocol = url.protocol
  return protocol === 'ws:' || protocol === 'wss:' ? `${httpScheme(protocol)}//${url.host}` : url.origin
}
