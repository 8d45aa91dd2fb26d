import { type IncomingMessage, STATUS_CODES } from 'node:http'
import { isIP } from 'node:net'
import type { Duplex } from 'node:stream'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import { rewriteSetCookie } from './cookie-rewrite.js'

// The raw-socket side of a forwarded WebSocket handshake: where to connect, the response head
// written by hand on the client's socket, and the two sockets joined once the protocol switched.

/** The connect options of the upstream handshake, from the route's target. */
export function connectOptions(target: URL, secure: boolean) {
  const tls = target.protocol === 'https:' || target.protocol === 'wss:'
  // URL keeps the brackets of an IPv6 literal; sockets want the bare address.
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname
  return {
    tls,
    hostname,
    port: target.port === '' ? (tls ? 443 : 80) : Number(target.port),
    // Verify the name we connect to, not the client's Host (which `changeOrigin: false` sends);
    // TLS forbids an IP address as server name (RFC 6066 section 3), '' sends none.
    servername: isIP(hostname) === 0 ? hostname : '',
    rejectUnauthorized: secure,
  }
}

/** A response head as raw bytes, from Node's `rawHeaders` (original case and order, repeats kept). */
export function responseHead(
  status: number,
  message: string,
  fields: ReadonlyArray<readonly [string, string]>,
): string {
  let head = `HTTP/1.1 ${status} ${message}\r\n`
  for (const [name, value] of fields) head += `${name}: ${value}\r\n`
  return `${head}\r\n`
}

/** Pairs of `rawHeaders`, Set-Cookie rewritten with the route's rules, and hop-by-hop fields dropped unless `keep`. */
export function relayedFields(
  res: IncomingMessage,
  route: ResolvedForwardRoute,
  keep: ReadonlySet<string>,
): Array<readonly [string, string]> {
  const listed = connectionListedHeaders(res.headers.connection)
  const fields: Array<readonly [string, string]> = []
  const raw = res.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string
    let value = raw[i + 1] as string
    const lower = name.toLowerCase()
    if (!keep.has(lower) && (HOP_BY_HOP_HEADERS.has(lower) || listed.has(lower))) continue
    if (lower === 'set-cookie') value = rewriteSetCookie(value, route)
    fields.push([name, value])
  }
  return fields
}

/** The 101 answer keeps the fields that make it a protocol switch (RFC 9110 section 7.8). */
export const SWITCH_FIELDS: ReadonlySet<string> = new Set(['connection', 'upgrade'])
/** Any other answer keeps no hop-by-hop field. */
export const NOTHING: ReadonlySet<string> = new Set()

/**
 * Ties the two sockets together once the upstream has switched protocols: bytes are piped both
 * ways with back-pressure; an end on one side ends the other after its pending bytes are
 * written (so a WebSocket close frame is delivered before the TCP close); an error on either
 * side destroys both.
 */
export function join(client: Duplex, upstream: Duplex, sockets: Set<Duplex>): void {
  const destroyBoth = () => {
    client.destroy()
    upstream.destroy()
  }
  const closeAfterFlush = (other: Duplex) => () => {
    if (other.destroyed) return
    if (other.writableFinished) other.destroy()
    else other.end(() => other.destroy())
  }
  client.on('error', destroyBoth)
  upstream.on('error', destroyBoth)
  client.once('close', closeAfterFlush(upstream))
  upstream.once('close', closeAfterFlush(client))
  upstream.once('close', () => sockets.delete(upstream))
  client.pipe(upstream)
  upstream.pipe(client)
}

/** A target's origin as the WebSocket URL it is (`http://h:3000` → `ws://h:3000`), for the debug line. */
export function webSocketOrigin(target: URL): string {
  return `${target.protocol === 'https:' || target.protocol === 'wss:' ? 'wss' : 'ws'}://${target.host}`
}

/** An answer of our own on the client's socket, closing it: a status, a type and a body. */
export function answerOnSocket(socket: Duplex, status: number, contentType: string, body: string): void {
  socket.end(
    responseHead(status, STATUS_CODES[status] ?? '', [
      ['content-type', contentType],
      ['content-length', String(Buffer.byteLength(body))],
      ['connection', 'close'],
    ]) + body,
  )
}
