import { mimeEssence } from '../http/mime.js'
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
 * - Without bytes written, a body a parser read is serialised again from `req.body` as the hooks
 *   left it (an edit reaches the target), in the `Content-Type` they left (see `reserialised`).
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
    if (body.kind === 'stream' || body.kind === 'prefixed') {
      // The client's whole body follows the hook's bytes: its own length, when it announced one.
      const rest = req.httpVersionMajor === 2 ? undefined : req.headers['content-length']
      total = rest === undefined ? undefined : bytes.byteLength + Number(rest)
      const prefix = body.kind === 'prefixed' ? Buffer.concat([bytes, body.prefix]) : bytes
      settled = { kind: 'prefixed', prefix }
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
  if (body.kind !== 'parsed' && body.kind !== 'lost') return body
  return reserialised(req, headers, body, route, warn)
}

/**
 * A body a parser read, serialised again from `req.body` as the hooks left it (they may have
 * edited it), in the outgoing `Content-Type` (they may have changed it): when the body cannot be
 * sent as that type, in the original type, and `warn` says so. Still `lost` when `req.body`
 * cannot be sent as either.
 */
function reserialised(
  req: ProxyRequest,
  headers: OutgoingParts['headers'],
  body: RequestBody,
  route: string,
  warn: (message: string) => void,
): RequestBody {
  const current = (req as { body?: unknown }).body
  const type = headers['content-type']
  const wanted = Array.isArray(type) ? type[0] : type
  const original = req.headers['content-type']
  let bytes = current === undefined ? undefined : serialiseBody(req, current, wanted)
  if (bytes === undefined && current !== undefined && wanted !== original) {
    bytes = serialiseBody(req, current, original)
    if (bytes !== undefined) {
      warn(
        `a proxyReq hook of ${route} changed Content-Type to ${String(type)}, and req.body cannot be sent as that: ` +
          `sent as ${original ?? 'it came'} instead. Write the body yourself with proxyReq.write().`,
      )
      if (original === undefined) delete headers['content-type']
      else headers['content-type'] = original
    }
  }
  if (bytes !== undefined && !Buffer.isBuffer(bytes)) throw new RefusedBody(bytes.refused)
  if (bytes === undefined) {
    if (body.kind === 'lost') return body
    return {
      kind: 'lost',
      cause: `a proxyReq hook left a req.body that cannot be sent as ${mimeEssence(wanted) ?? 'an unknown type'}`,
    }
  }
  delete headers['transfer-encoding']
  headers['content-length'] = String(bytes.byteLength)
  return { kind: 'parsed', bytes }
}
