import { constants as http2 } from 'node:http2'
import type { ProxyResponse } from '../http/proxy-types.js'

/**
 * Whether the client's side of a response is gone (its connection or HTTP/2 stream closed or
 * destroyed), so nothing can be sent any more. `ServerResponse` says so in `destroyed`; Node
 * 20's `Http2ServerResponse` has no `destroyed` of its own, its stream has.
 *
 * @example
 * if (isResponseClosed(res)) return
 */
export function isResponseClosed(res: ProxyResponse): boolean {
  if ('stream' in res) return res.stream.destroyed
  return res.destroyed
}

/**
 * Breaks off a response that cannot be completed, so the client sees a failure and never takes
 * a short body for a whole one.
 * - HTTP/1.1: the connection is destroyed; the body then lacks its last chunk or some of its
 *   Content-Length bytes, which clients report as incomplete (RFC 9112 section 8).
 * - HTTP/2: the stream is reset with INTERNAL_ERROR (RFC 9113 sections 6.4 and 7). Node's
 *   `res.destroy()` resets it with NO_ERROR instead, which Node's client reports as a clean end
 *   of the body.
 *
 * @example
 * upstreamBody.on('error', () => abortResponse(res))
 */
export function abortResponse(res: ProxyResponse): void {
  if (!('stream' in res)) {
    res.destroy()
    return
  }
  if (!res.stream.closed && !res.stream.destroyed) res.stream.close(http2.NGHTTP2_INTERNAL_ERROR)
}
