import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import { rewriteSetCookie } from './cookie-rewrite.js'
import type { LocationRewriter } from './location-rewrite.js'
import { utf8Value } from './raw-headers.js'

/** What {@link buildClientHeaders} needs to know about the client's connection. */
export interface ClientConnection {
  /** The client speaks HTTP/2 (`req.httpVersionMajor === 2`). */
  http2: boolean
  /** Points `Location` and `Content-Location` at the target back at the dev server. */
  rewriteLocation?: LocationRewriter | undefined
  /** The origin the browser used, for an absolute `Location` (see `requestedOrigin`). */
  browserOrigin?: string | undefined
}

/**
 * Rewrites one `Location`/`Content-Location` value. The upstream's values are bytes decoded as
 * latin1 (see `headersFromRaw`): a `Location` is read as UTF-8 to be rewritten, and passed on
 * byte for byte when it is not the target's.
 */
function rewrittenLocation(value: string, client: ClientConnection, rewrite: LocationRewriter): string {
  const decoded = utf8Value(value)
  const rewritten = rewrite(decoded, client.browserOrigin)
  return rewritten === decoded ? value : rewritten
}

/**
 * Builds the headers of the client's response from the upstream's:
 * - Hop-by-hop fields are dropped, with every field the upstream's `Connection` names
 *   (RFC 9110 section 7.6.1). Node's server then writes its own `Connection: keep-alive` (and
 *   `Keep-Alive: timeout=...`) for an HTTP/1.1 client on a persistent connection, which is what
 *   keeps the browser's connection open even when the target said `Connection: close`
 *   (Vite's proxy passes that through and every response closes its connection). For an HTTP/2
 *   client none of these may appear at all (RFC 9113 section 8.2.2: a stream error, the
 *   `NGHTTP2_INTERNAL_ERROR` http-proxy-middleware 4 answers when the target sends
 *   `Keep-Alive: timeout=5`).
 * - Each `Set-Cookie` line is rewritten on its own with the route's cookie rewrites; the lines
 *   stay separate, since a comma is legal inside one cookie (`Expires=Wed, 21 Oct ...`).
 * - `Location` and `Content-Location` pointing at the target are pointed back at the dev server
 *   (see `createLocationRewrite`), so a redirect keeps the browser on the dev server.
 * - For an HTTP/2 client, repeated fields other than `Set-Cookie` are combined into one
 *   comma-separated line (RFC 9110 section 5.3), because Node's HTTP/2 layer refuses a list for
 *   single-value fields such as `Content-Type`.
 *
 * @example
 * buildClientHeaders({ 'set-cookie': ['a=1; Domain=api.test'], connection: 'close' }, route, { http2: false })
 * // { 'set-cookie': ['a=1'] }
 */
export function buildClientHeaders(
  upstream: IncomingHttpHeaders,
  route: ResolvedForwardRoute,
  client: ClientConnection,
): OutgoingHttpHeaders {
  const listed = connectionListedHeaders(upstream.connection)
  const rewritesCookies = route.cookieDomainRewrite !== false || route.cookiePathRewrite !== false
  const headers: OutgoingHttpHeaders = {}
  for (const name of Object.keys(upstream)) {
    if (HOP_BY_HOP_HEADERS.has(name) || listed.has(name)) continue
    const value = upstream[name]
    if (value === undefined) continue
    if (name === 'set-cookie') {
      const lines = Array.isArray(value) ? value : [value]
      headers[name] = rewritesCookies ? lines.map((line) => rewriteSetCookie(line, route)) : lines
    } else if ((name === 'location' || name === 'content-location') && client.rewriteLocation !== undefined) {
      // Only a single value can be a redirect; a repeated (invalid) field passes as it came.
      headers[name as string] =
        typeof value === 'string' ? rewrittenLocation(value, client, client.rewriteLocation) : value
    } else if (client.http2 && Array.isArray(value)) {
      headers[name] = value.join(', ')
    } else {
      headers[name] = value
    }
  }
  // Node's HTTP/1.1 server re-encodes a `Content-Disposition` written after `Content-Length`
  // and then refuses any non-ASCII filename in it (ERR_INVALID_CHAR, a 502 here); written
  // before, its bytes go out as they came. So the length goes last.
  const length = headers['content-length']
  if (length !== undefined && headers['content-disposition'] !== undefined) {
    delete headers['content-length']
    headers['content-length'] = length
  }
  return headers
}
