import type { ProxyRequest } from '../http/proxy-types.js'
import type { OutgoingParts } from './hook-runner.js'
import { type RequestBody, serialiseBody } from './request-body.js'

/** A body a parser read before the proxy and no hook wrote again: it cannot be sent. */
export class LostBody extends Error {
  constructor(cause: string) {
    super(cause)
    this.name = 'LostBody'
  }
}

/** A body the proxy will not send: re-serialising it would let a field inject into the request. */
export class RefusedBody extends Error {
  constructor(cause: string) {
    super(cause)
    this.name = 'RefusedBody'
  }
}

/**
 * The body to send once the `proxyReq` hooks ran, with `Content-Length` made to describe it.
 * - Bytes a hook wrote (`proxyReq.write`, http-proxy-middleware's `fixRequestBody` pattern)
 *   replace a body a parser read (or add one where there was none); on a body nobody read they
 *   go first, then the client's stream, as http-proxy sends them.
 * - A hook that changed `Content-Type` on a body a parser read gets `req.body` re-serialised in
 *   the new type, when that can be done faithfully; otherwise the original type and bytes are
 *   sent, and `warn` says so.
 * - A declared length that does not match what is sent is corrected, and `warn` says so: undici
 *   would otherwise fail the request, or the target would read a cut body.
 * Throws {@link RefusedBody} when the re-serialised body would be unsafe (see `serialiseBody`).
 *
 * @example
 * await runHooks(hooks.proxyReq, [outgoingRequest(method, target, parts), req, res])
 * const body = settleHookedBody(req, parts, requestBodyOf(req), "route '/api'", logger.warn)
 */
export function settleHookedBody(
  req: ProxyRequest,
  parts: OutgoingParts,
  body: RequestBody,
  route: string,
  warn: (message: string) => void,
): RequestBody {
  const { headers, written } = parts
  if (written !== undefined && written.length > 0) {
    const bytes = Buffer.concat(written)
    parts.written = undefined
    const declared = headers['content-length']
    let total: number | undefined = bytes.byteLength
    let settled: RequestBody = { kind: 'parsed', bytes }
    if (body.kind === 'stream') {
      const rest = req.httpVersionMajor === 2 ? undefined : req.headers['content-length']
      total = rest === undefined ? undefined : bytes.byteLength + Number(rest)
      settled = { kind: 'prefixed', prefix: bytes }
    }
    delete headers['transfer-encoding']
    if (total === undefined) {
      // The client's part has no known length: sent chunked.
      delete headers['content-length']
      return settled
    }
    if (declared !== undefined && String(declared) !== String(total)) {
      warn(
        `a proxyReq hook of ${route} set Content-Length: ${declared} and wrote a body of ${total} bytes: sent with Content-Length: ${total}`,
      )
    }
    headers['content-length'] = String(total)
    return settled
  }
  if (body.kind !== 'parsed') return body
  const type = headers['content-type']
  const original = req.headers['content-type']
  if (type === original) return body
  const bytes = serialiseBody(req, (req as { body?: unknown }).body, Array.isArray(type) ? type[0] : type)
  if (bytes !== undefined && !Buffer.isBuffer(bytes)) throw new RefusedBody(bytes.refused)
  if (bytes === undefined) {
    warn(
      `a proxyReq hook of ${route} changed Content-Type to ${String(type)}, and req.body cannot be sent as that: ` +
        `sent as ${original ?? 'it came'} instead. Write the body yourself with proxyReq.write().`,
    )
    if (original === undefined) delete headers['content-type']
    else headers['content-type'] = original
    return body
  }
  delete headers['transfer-encoding']
  headers['content-length'] = String(bytes.byteLength)
  return { kind: 'parsed', bytes }
}
