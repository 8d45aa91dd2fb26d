import { joinTargetPath } from '../config/path-rewrite.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import type { OutgoingParts } from './hook-runner.js'
import type { RequestBody } from './request-body.js'
import { buildUpstreamHeaders } from './request-headers.js'

/**
 * The path and headers of the upstream request, before the `proxyReq` hooks: the rewritten path
 * on the target's base path, and the client's headers cleaned (see `buildUpstreamHeaders`).
 *
 * @example
 * outgoingParts(req, route, '/users', { kind: 'none' }) // { path: '/v1/users', headers: { host: 'localhost:3000', ... } }
 */
export function outgoingParts(
  req: ProxyRequest,
  routed: ResolvedForwardRoute,
  rewritten: string,
  body: RequestBody,
): OutgoingParts {
  const headers = buildUpstreamHeaders(req, routed)
  if (body.kind === 'parsed') {
    // The parser's bytes replace the stream: the framing has to describe them.
    delete headers['transfer-encoding']
    headers['content-length'] = String(body.bytes.byteLength)
  }
  return { path: joinTargetPath(routed.target, rewritten), headers }
}
