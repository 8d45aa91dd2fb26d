import type { IncomingProxyResponse, TransformResponse } from '../config/hook-options.js'
import { decodeContent } from '../http/content-decoding.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { UpstreamResponse } from './relay-response.js'

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

/** Reads the whole body, up to `limit` bytes; `undefined` (the body destroyed) past it. */
async function readAll(upstream: UpstreamResponse, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of upstream.body) {
    size += (chunk as Buffer).byteLength
    if (size > limit) {
      upstream.body.destroy()
      return undefined
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * Whether an answer goes through `transformResponse`: not an event stream (it never ends, and
 * each event must reach the page as it comes) and not an answer without a body.
 */
export function isTransformable(req: ProxyRequest, upstream: UpstreamResponse): boolean {
  const status = upstream.statusCode
  if (req.method === 'HEAD' || status === 204 || status === 304 || status < 200) return false
  const type = upstream.headers['content-type']
  return !(typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream'))
}

/**
 * Runs `transformResponse` as http-proxy-middleware's response interceptor does: the whole
 * answer, decompressed, goes to the function; what it returns is the new body (a Buffer or a
 * string as it is, `undefined` keeps the body, anything else as JSON, `json` then set). The
 * head is the caller's to fix (see `sendTransformedAnswer`). A throw propagates.
 *
 * @example
 * const outcome = await transformAnswer(upstream, proxyRes, transform, req, res)
 */
export async function transformAnswer(
  upstream: UpstreamResponse,
  proxyRes: IncomingProxyResponse,
  transform: TransformResponse,
  req: ProxyRequest,
  res: ProxyResponse,
): Promise<TransformOutcome> {
  const raw = await readAll(upstream, MAX_TRANSFORM_BYTES)
  if (raw === undefined) return { kind: 'too-large' }
  const encoding = String(proxyRes.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  const decoded = decodeContent(raw, encoding, MAX_TRANSFORM_BYTES)
  if (decoded === 'too-large') return { kind: 'too-large' }
  if (decoded === 'undecodable') return { kind: 'undecodable', encoding }
  const result = await transform(decoded, proxyRes, req, res)
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
