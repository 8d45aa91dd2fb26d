import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { LocationRewriter } from '../../forward/location-rewrite.js'
import { buildClientHeaders } from '../../forward/response-headers.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { ResolvedMockAnswer } from './options/route-mock-answer.js'

/** The header on every mocked answer: the file or the key it came from. */
export const MOCKED_HEADER = 'x-cors-dev-proxy-mocked'

/** Statuses sent without content (RFC 9110 sections 15.3.5, 15.3.6 and 15.4.5). */
const NO_CONTENT = new Set([204, 205, 304])

/** A field value is latin1 bytes: a file name or key with other characters goes percent-encoded. */
function markOf(source: string): string {
  return /^[\x20-\x7e]*$/.test(source) ? source : encodeURI(source)
}

/**
 * Writes a mocked answer as the forwarder writes the target's: its headers through the same
 * rules (`buildClientHeaders`: each `Set-Cookie` rewritten with the route's cookie rewrites, a
 * `Location` at the target pointed back at the dev server, fields HTTP/2 forbids dropped), then
 * `X-Cors-Dev-Proxy-Mocked` naming `source`. The route's CORS headers go on through the response's
 * head hooks, as on any answer. Never throws.
 *
 * @example
 * writeMockAnswer(req, res, answer, 'cors-dev-proxy/mocks/api/GET _users_{id}.json', route, rewrite)
 */
export function writeMockAnswer(
  req: ProxyRequest,
  res: ProxyResponse,
  answer: ResolvedMockAnswer,
  source: string,
  route: ResolvedForwardRoute,
  rewriteLocation: LocationRewriter | undefined,
): void {
  const headers: OutgoingHttpHeaders = buildClientHeaders(answer.headers as IncomingHttpHeaders, route, {
    http2: req.httpVersionMajor === 2,
    rewriteLocation,
    request: req,
    statusCode: answer.status,
  })
  headers[MOCKED_HEADER] = markOf(source)
  const empty = NO_CONTENT.has(answer.status)
  if (!empty) headers['content-length'] = String(answer.body.byteLength)
  try {
    res.writeHead(answer.status, headers)
    if (empty || req.method === 'HEAD') res.end()
    else res.end(answer.body)
  } catch (error) {
    // A value Node refuses after all (the checks match RFC 9110, Node is a little stricter).
    sendText(
      res,
      500,
      'text/plain; charset=utf-8',
      `cors-dev-proxy: the mock ${markOf(source)} cannot be sent: ${(error as Error).message}\n`,
    )
  }
}
