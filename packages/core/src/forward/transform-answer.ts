import type { IncomingHttpHeaders } from 'node:http'
import type { IncomingProxyResponse, TransformResponse } from '../config/hook-options.js'
import { decodeContent } from '../http/content-decoding.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

/**
 * Largest answer `transformResponse` is given, compressed and decompressed alike: it holds the
 * whole body in memory, and a small compressed answer can inflate without bound.
 */
export const MAX_TRANSFORM_BYTES = 16 * 1024 * 1024

/** What a transform produced, or why there is nothing to send. */
export type TransformOutcome =
  /** The new body; `json` when the transform returned a value that was serialised as JSON. */
  | { readonly kind: 'body'; readonly body: Buffer; readonly json: boolean }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'undecodable'; readonly encoding: string }

/**
 * Whether an answer goes through `transformResponse`: not an event stream (it never ends, and
 * each event must reach the page as it comes) and not an answer without a body.
 *
 * @example
 * isTransformable('GET', 200, { 'content-type': 'application/json' }) // true
 */
export function isTransformable(
  method: string | undefined,
  status: number,
  headers: IncomingHttpHeaders,
): boolean {
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200) return false
  const type = headers['content-type']
  return !(typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream'))
}

/** What the transform returned, as the body to send. */
function outcomeOf(result: unknown, decoded: Buffer): TransformOutcome {
  let body: Buffer
  let json = false
  if (result === undefined) body = decoded
  else if (Buffer.isBuffer(result)) body = result
  else if (result instanceof Uint8Array)
    body = Buffer.from(result.buffer, result.byteOffset, result.byteLength)
  else if (typeof result === 'string') body = Buffer.from(result)
  else {
    body = Buffer.from(JSON.stringify(result))
    json = true
  }
  return { kind: 'body', body, json }
}

/**
 * Runs `transformResponse` as http-proxy-middleware's response interceptor does: the whole
 * answer (`raw`, as the target sent it), decompressed, goes to the function; what it returns is
 * the new body (a Buffer or a string as it is, `undefined` keeps the body, anything else as
 * JSON, `json` then set). The head is the caller's to fix (see `sendTransformedAnswer`). A
 * synchronous transform gets its outcome back without a promise; a throw (or a rejection)
 * propagates.
 *
 * @example
 * const outcome = transformAnswer(raw, proxyRes, transform, req, res)
 * if (outcome instanceof Promise) await outcome
 */
export function transformAnswer(
  raw: Buffer,
  proxyRes: IncomingProxyResponse,
  transform: TransformResponse,
  req: ProxyRequest,
  res: ProxyResponse,
): TransformOutcome | Promise<TransformOutcome> {
  const encoding = String(proxyRes.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  const decoded = decodeContent(raw, encoding, MAX_TRANSFORM_BYTES)
  if (decoded === 'too-large') return { kind: 'too-large' }
  if (decoded === 'undecodable') return { kind: 'undecodable', encoding }
  const result: unknown = transform(decoded, proxyRes, req, res)
  return result !== null && typeof (result as { then?: unknown } | undefined)?.then === 'function'
    ? Promise.resolve(result).then((settled: unknown) => outcomeOf(settled, decoded))
    : outcomeOf(result, decoded)
}
