import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import { rewriteSetCookie } from './cookie-rewrite.js'
import type { LocationRewriter } from './location-rewrite.js'
import { fieldText, type RawField, utf8Value } from './raw-headers.js'

/** What {@link buildClientHeaders} and {@link buildClientHeadList} need to know about the answer's client. */
export interface ClientConnection {
  /** The client speaks HTTP/2 (`req.httpVersionMajor === 2`). */
  http2: boolean
  /** Points `Location` and `Content-Location` at the target back at the dev server. */
  rewriteLocation?: LocationRewriter | undefined
  /** The client's request: the origin it used is what an absolute `Location` is rewritten to (see `requestedOrigin`). */
  request?: ProxyRequest | undefined
  /** The answer's status: a 204 loses its `Content-Length`. */
  statusCode?: number | undefined
}

const NO_NAMES: ReadonlySet<string> = new Set()

/**
 * Whether an upstream field stays off the client's head:
 * - hop-by-hop fields, with every field the upstream's `Connection` names (`listed`,
 *   RFC 9110 section 7.6.1). Node's server then writes its own `Connection: keep-alive` (and
 *   `Keep-Alive: timeout=...`) for an HTTP/1.1 client on a persistent connection, which is what
 *   keeps the browser's connection open even when the target said `Connection: close`
 *   (Vite's proxy passes that through and every response closes its connection). For an HTTP/2
 *   client none of these may appear at all (RFC 9113 section 8.2.2: a stream error, the
 *   `NGHTTP2_INTERNAL_ERROR` http-proxy-middleware 4 answers when the target sends
 *   `Keep-Alive: timeout=5`);
 * - `Content-Length` on a 204 (RFC 9110 section 8.6; HTTP/2 clients refuse it as malformed).
 */
function dropsField(name: string, listed: ReadonlySet<string>, client: ClientConnection): boolean {
  return (
    HOP_BY_HOP_HEADERS.has(name) ||
    listed.has(name) ||
    (client.statusCode === 204 && name === 'content-length')
  )
}

/**
 * One `Set-Cookie` line as the client gets it, rewritten with the route's cookie rewrites. Lines
 * stay separate, since a comma is legal inside one cookie (`Expires=Wed, 21 Oct ...`).
 */
function clientSetCookie(line: string, route: ResolvedForwardRoute): string {
  return route.cookieDomainRewrite !== false || route.cookiePathRewrite !== false
    ? rewriteSetCookie(line, route)
    : line
}

/** `Location` and `Content-Location`: pointed back at the dev server when they point at the target. */
function isLocationField(name: string): boolean {
  return name === 'location' || name === 'content-location'
}

/**
 * Rewrites one `Location`/`Content-Location` value (see `createLocationRewrite`), so a redirect
 * keeps the browser on the dev server. Only a single value can be a redirect: a repeated
 * (invalid) field passes as it came. The upstream's values are bytes decoded as latin1 (see
 * `headersFromRaw`): a `Location` is read as UTF-8 to be rewritten, and passed on byte for byte
 * when it is not the target's.
 */
function rewrittenLocation(value: string, client: ClientConnection, rewrite: LocationRewriter): string {
  const decoded = utf8Value(value)
  const origin = client.request === undefined ? undefined : requestedOrigin(client.request)
  const rewritten = rewrite(decoded, origin)
  return rewritten === decoded ? value : rewritten
}

/*
 * Node's HTTP/1.1 server re-encodes a `Content-Disposition` written after `Content-Length` and
 * then refuses any non-ASCII filename in it (ERR_INVALID_CHAR, a 502 here); written before, its
 * bytes go out as they came. So when both are there the length goes last, in both shapes of the
 * head below.
 */

/**
 * Builds the headers of the client's response from the upstream's, as an object (for the
 * `proxyRes` hooks, `transformResponse` and HTTP/2 clients; {@link buildClientHeadList} is the
 * same head as a flat list):
 * - fields dropped as `dropsField` says (hop-by-hop, `Connection`-listed, a 204's length);
 * - each `Set-Cookie` line rewritten on its own with the route's cookie rewrites;
 * - `Location` and `Content-Location` pointing at the target pointed back at the dev server;
 * - for an HTTP/2 client, repeated fields other than `Set-Cookie` combined into one
 *   comma-separated line (RFC 9110 section 5.3), because Node's HTTP/2 layer refuses a list for
 *   single-value fields such as `Content-Type`;
 * - `Content-Length` after `Content-Disposition`.
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
  const headers: OutgoingHttpHeaders = {}
  for (const name of Object.keys(upstream)) {
    if (dropsField(name, listed, client)) continue
    const value = upstream[name]
    if (value === undefined) continue
    if (name === 'set-cookie') {
      headers[name] = (Array.isArray(value) ? value : [value]).map((line) => clientSetCookie(line, route))
    } else if (isLocationField(name) && client.rewriteLocation !== undefined) {
      headers[name as string] =
        typeof value === 'string' ? rewrittenLocation(value, client, client.rewriteLocation) : value
    } else if (client.http2 && Array.isArray(value)) {
      headers[name] = value.join(', ')
    } else {
      headers[name] = value
    }
  }
  const length = headers['content-length']
  if (length !== undefined && headers['content-disposition'] !== undefined) {
    delete headers['content-length']
    headers['content-length'] = length
  }
  return headers
}

/**
 * Builds the head of the client's response straight from undici's raw list, as the flat
 * `[name, value, name, value, ...]` list `res.writeHead` takes: the common case, where no
 * `proxyRes` hook needs the head as an object and the client speaks HTTP/1.1, costs no object
 * per head. The rules are {@link buildClientHeaders}'s, through the same functions; names are
 * lowercased, values latin1-decoded (see `headersFromRaw`), repeated fields stay separate lines
 * in the order they came. An HTTP/2 client needs repeated fields combined: it gets the object.
 *
 * @example
 * buildClientHeadList(['Set-Cookie', 'a=1; Domain=api.test', 'Connection', 'close'], route, { http2: false })
 * // ['set-cookie', 'a=1']
 */
export function buildClientHeadList(
  raw: readonly RawField[],
  route: ResolvedForwardRoute,
  client: ClientConnection,
): string[] {
  let list: string[] = []
  let connection: string | undefined
  let locations = false
  let length = false
  let disposition = false
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = fieldText(raw[index] as RawField).toLowerCase()
    let value = fieldText(raw[index + 1] as RawField)
    // The names `Connection` lists are known once the whole head was read: filtered after.
    if (name === 'connection') connection = connection === undefined ? value : `${connection},${value}`
    if (dropsField(name, NO_NAMES, client)) continue
    if (name === 'set-cookie') value = clientSetCookie(value, route)
    else if (name === 'content-length') length = true
    else if (name === 'content-disposition') disposition = true
    else if (isLocationField(name)) locations = true
    list.push(name, value)
  }
  const listed = connectionListedHeaders(connection)
  if (listed.size > 0) list = withoutFields(list, listed, client)
  if (locations && client.rewriteLocation !== undefined) {
    rewriteSingleField(list, 'location', client, client.rewriteLocation)
    rewriteSingleField(list, 'content-location', client, client.rewriteLocation)
  }
  if (length && disposition) moveFieldLast(list, 'content-length')
  return list
}

/** `list` without the fields `dropsField` drops given the names `Connection` lists. */
function withoutFields(
  list: readonly string[],
  listed: ReadonlySet<string>,
  client: ClientConnection,
): string[] {
  const kept: string[] = []
  for (let index = 0; index + 1 < list.length; index += 2) {
    const name = list[index] as string
    if (!dropsField(name, listed, client)) kept.push(name, list[index + 1] as string)
  }
  return kept
}

/** Rewrites the `Location`-like field `name` of a flat head in place when it came once (see `rewrittenLocation`). */
function rewriteSingleField(
  list: string[],
  name: string,
  client: ClientConnection,
  rewrite: LocationRewriter,
): void {
  let at = -1
  for (let index = 0; index < list.length; index += 2) {
    if (list[index] !== name) continue
    if (at !== -1) return
    at = index + 1
  }
  if (at !== -1) list[at] = rewrittenLocation(list[at] as string, client, rewrite)
}

/** Moves every line of the field `name` to the end of a flat head, in their order. */
function moveFieldLast(list: string[], name: string): void {
  const moved: string[] = []
  let write = 0
  for (let index = 0; index + 1 < list.length; index += 2) {
    if (list[index] === name) {
      moved.push(name, list[index + 1] as string)
    } else {
      list[write++] = list[index] as string
      list[write++] = list[index + 1] as string
    }
  }
  list.length = write
  list.push(...moved)
}

/**
 * The first value of the field `name` (lowercase) in a head of either shape, or `undefined`.
 *
 * @example
 * headValue(['content-type', 'text/event-stream'], 'content-type') // 'text/event-stream'
 */
export function headValue(head: OutgoingHttpHeaders | readonly string[], name: string): unknown {
  if (!Array.isArray(head)) return (head as OutgoingHttpHeaders)[name]
  for (let index = 0; index + 1 < head.length; index += 2) {
    if (head[index] === name) return head[index + 1]
  }
  return undefined
}
