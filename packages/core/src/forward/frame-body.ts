import type { RequestBody } from './request-body.js'
import type { UpstreamHeaders } from './request-headers.js'

/**
 * The framing of an HTTP request's body, on the headers the preparation built (see
 * `prepareRequest`): the one part of the outgoing request a WebSocket handshake, which has no
 * body, does not share. A parser's bytes replace the stream, so the framing has to describe them.
 *
 * @example
 * frameBody(prepared.headers, { kind: 'parsed', bytes }) // content-length: bytes' length, no transfer-encoding
 */
export function frameBody(headers: UpstreamHeaders, body: RequestBody): void {
  if (body.kind !== 'parsed') return
  delete headers['transfer-encoding']
  headers['content-length'] = String(body.bytes.byteLength)
}
