import type { OutgoingHttpHeader } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { isJsonMimeType } from '../http/mime.js'
import type { ProxyResponse } from '../http/proxy-types.js'
import { type HookableResponse, takeOverBody } from '../http/response-head.js'
import { wrapJsonText } from './jsonp-request.js'
import { JSONP_CONTENT_TYPE } from './jsonp-response.js'

/**
 * Largest answer held for wrapping. JSONP carries small API payloads; a bigger answer is
 * refused (502) rather than buffered without bound.
 */
export const MAX_JSONP_SOURCE_BYTES = 16 * 1024 * 1024

/** The body as text, undoing a Content-Encoding the handler applied; `undefined` when it cannot. */
function decodedText(body: Buffer, encoding: OutgoingHttpHeader | undefined): string | undefined {
  const name = encoding === undefined ? 'identity' : String(encoding).trim().toLowerCase()
  try {
    switch (name) {
      case 'identity':
      case '':
        return body.toString('utf8')
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body).toString('utf8')
      case 'deflate':
        return inflateSync(body).toString('utf8')
      case 'br':
        return brotliDecompressSync(body).toString('utf8')
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

/**
 * Holds the answer the next handler writes and, when it ends, sends it as JSONP if it is JSON
 * (compressed or not), else unchanged. The JSON is parsed and serialized again, so only data
 * ever reaches the page's script. An answer over `MAX_JSONP_SOURCE_BYTES` is answered 502
 * instead of being held without bound. Safe in any state: once headers are out (a handler that
 * flushed them), the body is passed through as written.
 *
 * @example
 * interceptJsonAnswer(res, 'handleUsers') // then let the next handler answer with JSON
 */
export function interceptJsonAnswer(res: ProxyResponse, callback: string): void {
  takeOverBody(res as unknown as HookableResponse, MAX_JSONP_SOURCE_BYTES, function wrapAsJsonp(body, head) {
    if (body === undefined) {
      const error = `{"error":"the answer is larger than ${MAX_JSONP_SOURCE_BYTES} bytes, too large to wrap as JSONP"}\n`
      for (const name of ['content-encoding', 'etag', 'last-modified']) head.removeHeader(name)
      head.statusCode = 502
      head.setHeader('content-type', 'application/json; charset=utf-8')
      head.setHeader('content-length', String(Buffer.byteLength(error)))
      return error
    }
    const contentType = head.getHeader('content-type')
    const isJson = isJsonMimeType(contentType === undefined ? undefined : String(contentType))
    const text = isJson ? decodedText(body, head.getHeader('content-encoding')) : undefined
    const wrapped = text === undefined ? undefined : wrapJsonText(callback, text)
    if (wrapped === undefined) return body
    head.setHeader('content-type', JSONP_CONTENT_TYPE)
    head.setHeader('x-content-type-options', 'nosniff')
    head.setHeader('content-length', String(Buffer.byteLength(wrapped)))
    // The encoding and the validators described the JSON, not the script.
    for (const name of ['content-encoding', 'etag', 'content-md5']) head.removeHeader(name)
    return wrapped
  })
}
