import type { OutgoingHttpHeader } from 'node:http'
import { decodeContent, type UndecodedBody } from '../http/content-decoding.js'
import { isJsonMimeType } from '../http/mime.js'
import type { ProxyResponse } from '../http/proxy-types.js'
import { type HookableResponse, type ResponseHead, takeOverBody } from '../http/response-head.js'
import { wrapJsonText } from './jsonp-request.js'
import { JSONP_CONTENT_TYPE } from './jsonp-response.js'

/**
 * Largest answer held for wrapping, counted before and after decompression. JSONP carries small
 * API payloads; a bigger answer is refused (502) rather than buffered without bound, and so is
 * a compressed one that inflates past it (a few hundred kilobytes of gzip can inflate to
 * gigabytes).
 */
export const MAX_JSONP_SOURCE_BYTES = 16 * 1024 * 1024

/**
 * The body as text, undoing a Content-Encoding the handler applied (zstd where Node has it), with
 * at most `limit` bytes of output (see `decodeContent`).
 */
function decodedText(
  body: Buffer,
  encoding: OutgoingHttpHeader | undefined,
  limit: number,
): string | UndecodedBody {
  const decoded = decodeContent(body, encoding === undefined ? '' : String(encoding), limit)
  return typeof decoded === 'string' ? decoded : decoded.toString('utf8')
}

/** Turns the held answer into a 502 that says why, dropping what described the original body. */
function refuseTooLarge(head: ResponseHead, compressed: boolean): string {
  const what = compressed ? 'the answer inflates to more than' : 'the answer is larger than'
  const error = `{"error":"${what} ${MAX_JSONP_SOURCE_BYTES / 2 ** 20} MiB, too large to wrap as JSONP"}\n`
  for (const name of ['content-encoding', 'etag', 'last-modified', 'content-md5']) head.removeHeader(name)
  head.statusCode = 502
  head.setHeader('content-type', 'application/json; charset=utf-8')
  head.setHeader('content-length', String(Buffer.byteLength(error)))
  return error
}

/**
 * Holds the answer the next handler writes and, when it ends, sends it as JSONP if it is JSON
 * (compressed or not), else unchanged. The JSON is parsed and serialized again, so only data
 * ever reaches the page's script. An answer over `MAX_JSONP_SOURCE_BYTES`, or a compressed one
 * that inflates past it, is answered 502 instead of being held or inflated without bound; an
 * answer that passes the limit while it arrives is answered at once and the rest is not read
 * (see `takeOverBody`). `onTooLarge` is told each time, for the log. Safe in any state: once
 * headers are out (a handler that flushed them), the body is passed through as written.
 *
 * @example
 * interceptJsonAnswer(res, 'handleUsers') // then let the next handler answer with JSON
 */
export function interceptJsonAnswer(res: ProxyResponse, callback: string, onTooLarge?: () => void): void {
  takeOverBody(res as unknown as HookableResponse, MAX_JSONP_SOURCE_BYTES, function wrapAsJsonp(body, head) {
    if (body === undefined) {
      onTooLarge?.()
      return refuseTooLarge(head, false)
    }
    const contentType = head.getHeader('content-type')
    if (!isJsonMimeType(contentType === undefined ? undefined : String(contentType))) return body
    const encoding = head.getHeader('content-encoding')
    const text = decodedText(body, encoding, MAX_JSONP_SOURCE_BYTES)
    if (text === 'too-large') {
      onTooLarge?.()
      return refuseTooLarge(head, true)
    }
    const wrapped = text === 'undecodable' ? undefined : wrapJsonText(callback, text)
    if (wrapped === undefined) return body
    head.setHeader('content-type', JSONP_CONTENT_TYPE)
    head.setHeader('x-content-type-options', 'nosniff')
    head.setHeader('content-length', String(Buffer.byteLength(wrapped)))
    // The encoding and the validators described the JSON, not the script.
    for (const name of ['content-encoding', 'etag', 'content-md5']) head.removeHeader(name)
    return wrapped
  })
}
