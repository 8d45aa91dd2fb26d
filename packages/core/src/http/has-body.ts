import type { Http2ServerRequest } from 'node:http2'
import type { ProxyRequest } from './proxy-types.js'

/**
 * Whether the request announces a body: a length other than 0, chunked framing, or an HTTP/2
 * DATA frame to come.
 *
 * @example
 * hasBody(req) // false for a GET without Content-Length or Transfer-Encoding
 */
export function hasBody(req: ProxyRequest): boolean {
  if (req.httpVersionMajor === 2) return !(req as Http2ServerRequest).stream.endAfterHeaders
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}
