import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import { httpOrigin } from '../http/http-origin.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { clientHost, isEncrypted, requestedOrigin } from '../http/request-origin.js'

/** Headers of an upstream request, names lowercased, in the shape undici and `node:http` take. */
export type UpstreamHeaders = Record<string, string | string[]>

/**
 * Request fields that never go upstream besides the hop-by-hop ones:
 * - `proxy-authorization`: RFC 9110 section 11.7.2, it "applies only to the next inbound proxy
 *   that demanded authentication". This proxy never demands it, and a target is not a proxy,
 *   so forwarding it would only hand the user's proxy credentials to the target.
 * - `expect`: RFC 9110 section 10.1.1 lets a proxy answer `100-continue` itself, which Node's
 *   server already did; undici refuses the field anyway (`expect header not supported`).
 * - `host`: always set below, from `changeOrigin`.
 */
const NOT_FORWARDED: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP_HEADERS,
  'proxy-authorization',
  'expect',
  'host',
])

const COLON = 0x3a

/** The port in a Host value (`[::1]:5173`, `localhost:5173`), or `undefined` when it has none. */
function hostPort(host: string): string | undefined {
  const colon = host.lastIndexOf(':')
  if (colon === -1 || host.indexOf(']', colon) !== -1) return undefined
  const port = host.slice(colon + 1)
  return port === '' ? undefined : port
}

/**
 * Adds the de-facto forwarding headers (what http-proxy's `xfwd` and nginx's usual
 * `proxy_set_header` lines send):
 * - `X-Forwarded-For` gets the client's address appended (`client, proxy-seen-ip`), so a chain of
 *   proxies stays readable left to right.
 * - `X-Forwarded-Proto`, `-Host`, `-Port` and `X-Real-IP` keep a value that is already there and
 *   are set otherwise: when the dev server itself sits behind a tunnel or a container's proxy,
 *   that outer hop saw the browser's scheme, host and address; this hop would only report itself.
 */
function addForwardingHeaders(req: ProxyRequest, headers: UpstreamHeaders, host: string | undefined): void {
  const address = req.socket?.remoteAddress
  const proto = isEncrypted(req) ? 'https' : 'http'
  if (address !== undefined) {
    const previous = req.headers['x-forwarded-for']
    headers['x-forwarded-for'] = previous ? `${previous}, ${address}` : address
    headers['x-real-ip'] ??= address
  }
  headers['x-forwarded-proto'] ??= proto
  if (host !== undefined) {
    headers['x-forwarded-host'] ??= host
    // The port the browser used: the one in its Host, else the scheme's default (RFC 9110 section 4.2).
    headers['x-forwarded-port'] ??= hostPort(host) ?? (proto === 'https' ? '443' : '80')
  }
}

/** The target's own origin, as a browser on it would send it (a `ws:` target's is `http:`). */
export function targetOriginOf(route: ResolvedForwardRoute): string {
  return new URL(httpOrigin(route.target)).origin
}

/**
 * Builds the headers of the upstream request from the client's, once per request:
 * 1. hop-by-hop fields are dropped, with every field the client's `Connection` names
 *    (RFC 9110 section 7.6.1); `TE: trailers` is kept, the one TE value that is about the
 *    message and not the connection (and the only one HTTP/2 allows, RFC 9113 section 8.2.2);
 * 2. HTTP/2 pseudo-headers (`:method`, `:path`, `:scheme`, `:authority`) are dropped: the method
 *    and path travel in undici's request line, and `:authority` becomes `Host` (RFC 9113
 *    section 8.3.1) when `changeOrigin` is off;
 * 3. `Host` is the target's `host:port` with `changeOrigin` (the default), else the client's;
 * 4. forwarding headers when `xfwd` is on (see `addForwardingHeaders`);
 * 5. with `changeOrigin` and `rewriteOrigin`, a same-origin call's `Origin` (the dev server's
 *    own) becomes the target's origin, so a backend that compares `Origin` with `Host` (a CSRF
 *    check, a WebSocket server) sees a consistent pair; any other `Origin` is a real
 *    cross-origin page and goes up unchanged, for the backend to judge;
 * 6. `auth`'s Basic `Authorization` when the client sent none;
 * 7. the route's fixed `headers` last, so they win, a fixed `host` included.
 *
 * @example
 * buildUpstreamHeaders(req, route) // { host: 'localhost:3000', accept: '*\/*', 'x-forwarded-for': '127.0.0.1', ... }
 */
export function buildUpstreamHeaders(req: ProxyRequest, route: ResolvedForwardRoute): UpstreamHeaders {
  const incoming = req.headers
  const listed = connectionListedHeaders(incoming.connection)
  const headers: UpstreamHeaders = {}
  for (const name of Object.keys(incoming)) {
    if (name.charCodeAt(0) === COLON || NOT_FORWARDED.has(name) || listed.has(name)) continue
    const value = incoming[name]
    if (value !== undefined) headers[name] = value
  }
  const te = incoming.te
  if (typeof te === 'string' && te.trim().toLowerCase() === 'trailers') headers.te = 'trailers'

  const host = clientHost(req)
  const upstreamHost = route.changeOrigin || host === undefined ? route.target?.host : host
  if (upstreamHost !== undefined) headers.host = upstreamHost
  if (route.xfwd) addForwardingHeaders(req, headers, host)
  const origin = incoming.origin
  if (origin !== undefined && route.changeOrigin && route.rewriteOrigin && origin === requestedOrigin(req)) {
    headers.origin = targetOriginOf(route)
  }
  // `auth`: sent only when the client sent none, as Node's `http.request({ auth })` does for http-proxy.
  if (route.authorization !== undefined) headers.authorization ??= route.authorization
  for (const [name, value] of route.headers) headers[name] = value
  return headers
}
