import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { buildUpstreamHeaders, targetOriginOf, type UpstreamHeaders } from './request-headers.js'

// A WebSocket handshake's headers for the target: an HTTP request's (`buildUpstreamHeaders`,
// from the routed route `prepareRequest` gives), plus the handshake's own rules. Node's upgrade
// sends the client's handshake on (`handshakeHeaders`); the Fetch handler's bridge opens a new
// one with the runtime's client, which writes the handshake's own fields (`bridgeHeaders`).

/**
 * The headers of a handshake forwarded on Node: the HTTP request's, `Origin` as Vite's
 * `rewriteWsOrigin` wants it, and the Upgrade pair regenerated for the next hop (hop-by-hop,
 * so `buildUpstreamHeaders` dropped it). `Sec-WebSocket-Key`, `-Version`, `-Protocol` and
 * `-Extensions` are end-to-end and go up as the client sent them.
 *
 * @example
 * handshakeHeaders(req, route) // { host: 'localhost:3000', connection: 'Upgrade', upgrade: 'websocket', ... }
 */
export function handshakeHeaders(req: ProxyRequest, routed: ResolvedForwardRoute): UpstreamHeaders {
  const headers = buildUpstreamHeaders(req, routed)
  // Vite's `rewriteWsOrigin`: whatever page opened the socket, the target sees its own origin.
  if (routed.rewriteWsOrigin && headers.origin !== undefined) headers.origin = targetOriginOf(routed)
  // The hop-by-hop pair is what asks for the switch: regenerated for the next hop (RFC 9110 section 7.8).
  headers.connection = 'Upgrade'
  headers.upgrade = req.headers.upgrade ?? 'websocket'
  return headers
}

/**
 * Fields the Fetch bridge's client writes itself: its own key and version (RFC 6455 section
 * 4.1), the extensions it supports (the runtime accepted the page's socket with its own), the
 * Upgrade pair, and `Host`, which the client takes from the target's URL.
 */
const WRITTEN_BY_CLIENT: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
])

/**
 * The headers the Fetch handler's bridge sends the target: a Node handshake's
 * ({@link handshakeHeaders}), without what the runtime's `WebSocket` client writes itself,
 * one value per name as the client's `headers` take them.
 *
 * @example
 * bridgeHeaders(req, route) // { origin: 'http://localhost:3000', cookie: 'sid=1', 'x-forwarded-for': '127.0.0.1', ... }
 */
export function bridgeHeaders(req: ProxyRequest, routed: ResolvedForwardRoute): Record<string, string> {
  const headers = handshakeHeaders(req, routed)
  const single: Record<string, string> = {}
  for (const name of Object.keys(headers)) {
    if (WRITTEN_BY_CLIENT.has(name)) continue
    const value = headers[name] as string | string[]
    single[name] = typeof value === 'string' ? value : value.join(name === 'cookie' ? '; ' : ', ')
  }
  return single
}
