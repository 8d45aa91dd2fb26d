import type { Http2ServerRequest } from 'node:http2'
import { isJsonMimeType, mimeEssence } from '../http/mime.js'
import type { ProxyRequest } from '../http/proxy-types.js'

/** What goes upstream as the request's body. */
export type RequestBody =
  /** No body (a GET, a HEAD, an empty POST). */
  | { readonly kind: 'none' }
  /** The client's body, streamed as it arrives. */
  | { readonly kind: 'stream' }
  /** A body parser already read the stream; its `req.body`, serialised again. */
  | { readonly kind: 'parsed'; readonly bytes: Buffer }
  /** The stream was read by someone else and nothing usable was left: never forward it empty. */
  | { readonly kind: 'lost'; readonly cause: string }

/** Whether the request announces a body: a length other than 0, chunked framing, or an HTTP/2 DATA frame to come. */
export function hasBody(req: ProxyRequest): boolean {
  if (req.httpVersionMajor === 2) return !(req as Http2ServerRequest).stream.endAfterHeaders
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** `a=1&b=2&b=3&c[d]=4`: what `express.urlencoded()` (extended or not) reads back into the same object. */
function urlencode(value: Record<string, unknown>): string {
  const params = new URLSearchParams()
  const add = (key: string, item: unknown): void => {
    if (item === undefined) return
    if (Array.isArray(item)) for (const entry of item) add(key, entry)
    else if (item !== null && typeof item === 'object') {
      for (const [name, inner] of Object.entries(item)) add(`${key}[${name}]`, inner)
    } else params.append(key, String(item))
  }
  for (const [key, item] of Object.entries(value)) add(key, item)
  return params.toString()
}

/** `req.body` as bytes, by the request's Content-Type; `undefined` when it cannot be done faithfully. */
function serialise(body: unknown, contentType: string | undefined): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  if (typeof body === 'string') return Buffer.from(body)
  if (isJsonMimeType(contentType)) return Buffer.from(JSON.stringify(body))
  if (
    body !== null &&
    typeof body === 'object' &&
    mimeEssence(contentType) === 'application/x-www-form-urlencoded'
  ) {
    return Buffer.from(urlencode(body as Record<string, unknown>))
  }
  return undefined
}

/**
 * Decides what to send upstream as the body. Usually the client's stream, untouched. When a
 * body parser mounted before the proxy (`express.json()`, `bodyParser.urlencoded()`...) has
 * already read the stream, what it left in `req.body` is serialised again by the request's
 * Content-Type: JSON (and `+json`), urlencoded, text, or raw bytes. A read stream with no usable
 * `req.body` is `lost`: forwarding it would send the target an empty body while the client
 * thinks its data went through.
 *
 * @example
 * requestBodyOf(req) // { kind: 'parsed', bytes: <Buffer 7b 22 61 22 3a 31 7d> } after express.json()
 */
export function requestBodyOf(req: ProxyRequest): RequestBody {
  if (!hasBody(req)) return { kind: 'none' }
  // body-parser marks what it read with `_body`; any reader leaves the stream ended.
  const read = req.readableEnded || (req as { _body?: unknown })._body === true
  if (!read) return { kind: 'stream' }
  const parsed = (req as { body?: unknown }).body
  const contentType = req.headers['content-type']
  if (parsed === undefined) {
    return { kind: 'lost', cause: 'the request body was read before the proxy, and no req.body was left' }
  }
  const bytes = serialise(parsed, contentType)
  if (bytes === undefined) {
    return {
      kind: 'lost',
      cause: `the request body was read before the proxy, and its req.body cannot be sent again as ${mimeEssence(contentType) ?? 'an unknown type'}`,
    }
  }
  return { kind: 'parsed', bytes }
}
