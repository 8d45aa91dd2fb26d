import type { Readable } from 'node:stream'
import { hasBody } from '../http/has-body.js'
import { isJsonMimeType, mimeEssence } from '../http/mime.js'
import { pacedUpload } from '../http/paced-upload.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { readPrefixOf } from '../http/read-prefix.js'
import type { Exchange } from '../pipeline/exchange.js'
import { requestStream } from './request-stream.js'

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
  /**
   * Bytes sent before the client's stream: what a `proxyReq` hook wrote (as http-proxy sends
   * them), or the start of the body a step read and stopped (http/read-prefix.ts).
   */
  | { readonly kind: 'prefixed'; readonly prefix: Buffer }
  /** Sending it again would let a field inject into the request (CR/LF, the boundary): 400. */
  | { readonly kind: 'refused'; readonly cause: string }

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

/** The form fields a multipart parser (multer, busboy-based) left, if they are only text. */
function multipartFields(req: ProxyRequest, body: unknown): Array<[string, string]> | undefined {
  // Files are not in req.body: sending the fields alone would drop them.
  const withFiles = req as { file?: unknown; files?: unknown }
  if (withFiles.file !== undefined || withFiles.files !== undefined) return undefined
  if (body === null || typeof body !== 'object') return undefined
  const fields: Array<[string, string]> = []
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') return undefined
      fields.push([name, String(item)])
    }
  }
  return fields
}

/**
 * Text fields as a multipart/form-data body with the request's own boundary (RFC 7578). A field
 * name with CR, LF or a quote would write headers of its own into the part, and a value holding
 * the boundary would start a part of its own (http-proxy-middleware's CVE-2026-55603, in its
 * `fixRequestBody`): such a body is refused, never sent.
 */
function multipart(
  fields: ReadonlyArray<[string, string]>,
  boundary: string,
): Buffer | { readonly refused: string } {
  const delimiter = `--${boundary}`
  const parts: string[] = []
  for (const [name, value] of fields) {
    if (/[\r\n"]/.test(name)) {
      return { refused: `the multipart field name ${JSON.stringify(name)} holds CR, LF or a quote` }
    }
    if (value.includes(delimiter)) {
      return { refused: `the multipart field ${JSON.stringify(name)} holds the boundary` }
    }
    parts.push(`${delimiter}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  parts.push(`${delimiter}--\r\n`)
  return Buffer.from(parts.join(''))
}

/** The boundary parameter of a multipart Content-Type, unquoted. */
function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '')
  return match?.[1] ?? match?.[2]
}

/**
 * `req.body` as bytes, by `contentType`: JSON (and `+json`), urlencoded, multipart text fields,
 * text or raw bytes; `undefined` when it cannot be done faithfully, `refused` when it would be
 * unsafe.
 */
export function serialiseBody(
  req: ProxyRequest,
  body: unknown,
  contentType: string | undefined,
): Buffer | { readonly refused: string } | undefined {
  if (Buffer.isBuffer(body)) return body
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  if (typeof body === 'string') return Buffer.from(body)
  if (isJsonMimeType(contentType)) return Buffer.from(JSON.stringify(body))
  const essence = mimeEssence(contentType)
  if (body !== null && typeof body === 'object' && essence === 'application/x-www-form-urlencoded') {
    return Buffer.from(urlencode(body as Record<string, unknown>))
  }
  const boundary = boundaryOf(contentType)
  if (essence === 'multipart/form-data' && boundary !== undefined) {
    const fields = multipartFields(req, body)
    return fields === undefined ? undefined : multipart(fields, boundary)
  }
  return undefined
}

/** The two bodies that carry nothing of their own, shared by every request (they are read-only). */
const NO_BODY: RequestBody = Object.freeze({ kind: 'none' })
const STREAMED_BODY: RequestBody = Object.freeze({ kind: 'stream' })

/**
 * Decides what to send upstream as the body. Usually the client's stream, untouched. When a
 * body parser mounted before the proxy (`express.json()`, `bodyParser.urlencoded()`...) has
 * already read the stream, what it left in `req.body` is serialised again by the request's
 * Content-Type: JSON (and `+json`), urlencoded, multipart text fields, text, or raw bytes
 * (`refused` when a field would inject into the request). A read stream with no usable
 * `req.body` is `lost`: forwarding it would send the target an empty body while the client
 * thinks its data went through.
 *
 * @example
 * requestBodyOf(req) // { kind: 'parsed', bytes: <Buffer 7b 22 61 22 3a 31 7d> } after express.json()
 */
export function requestBodyOf(req: ProxyRequest): RequestBody {
  if (!hasBody(req)) return NO_BODY
  // A step read the start of the body and left the rest in the stream: both go, in order.
  const prefix = readPrefixOf(req)
  if (prefix !== undefined) return { kind: 'prefixed', prefix }
  // body-parser marks what it read with `_body`; any reader leaves the stream ended.
  const read = req.readableEnded || (req as { _body?: unknown })._body === true
  if (!read) return STREAMED_BODY
  const parsed = (req as { body?: unknown }).body
  const contentType = req.headers['content-type']
  if (parsed === undefined) {
    return { kind: 'lost', cause: 'the request body was read before the proxy, and no req.body was left' }
  }
  const bytes = serialiseBody(req, parsed, contentType)
  if (bytes !== undefined && !Buffer.isBuffer(bytes)) return { kind: 'refused', cause: bytes.refused }
  if (bytes === undefined) {
    return {
      kind: 'lost',
      cause: `the request body was read before the proxy, and its req.body cannot be sent again as ${mimeEssence(contentType) ?? 'an unknown type'}`,
    }
  }
  return { kind: 'parsed', bytes }
}

/**
 * What undici sends for a body: the client's stream through a wrapper of its own (see
 * `requestStream`), after a hook's bytes when there are any, paced where the route's `throttle`
 * noted a rate in the request's exchange (`pacedUpload`), or the bytes to send again (a body parser read them whole, so
 * the client's upload is over: they go at once).
 *
 * @example
 * pool.dispatch({ method, path, headers, body: upstreamBodyOf(req, body, exchange) }, handler)
 */
export function upstreamBodyOf(
  req: ProxyRequest,
  body: RequestBody,
  exchange: Exchange | undefined,
): Readable | Buffer | null {
  switch (body.kind) {
    case 'stream':
      return pacedUpload(requestStream(req), exchange?.uploadPace)
    case 'prefixed':
      return pacedUpload(requestStream(req, body.prefix), exchange?.uploadPace)
    case 'parsed':
      return body.bytes
    default:
      return null
  }
}
