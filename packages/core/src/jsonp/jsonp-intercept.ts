import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { isJsonContentType, wrapJsonText } from './jsonp-request.js'
import { JSONP_CONTENT_TYPE } from './jsonp-response.js'

/** The response methods the interception takes over until the handler after it ends. */
export interface InterceptableResponse {
  statusCode: number
  readonly headersSent: boolean
  writeHead(status: number, ...rest: unknown[]): unknown
  write(chunk: unknown, ...rest: unknown[]): boolean
  end(...args: unknown[]): unknown
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  getHeader(name: string): OutgoingHttpHeader | undefined
  removeHeader(name: string): void
}

/**
 * Largest answer held for wrapping. JSONP carries small API payloads; a bigger answer is
 * refused (502) rather than buffered without bound.
 */
export const MAX_JSONP_SOURCE_BYTES = 16 * 1024 * 1024

function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined
  if (typeof chunk === 'string') {
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  }
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  return undefined
}

function applyHeaders(res: InterceptableResponse, headers: unknown): void {
  if (Array.isArray(headers)) {
    // writeHead also takes a flat [name, value, name, value] list.
    for (let i = 0; i + 1 < headers.length; i += 2) {
      res.setHeader(String(headers[i]), headers[i + 1] as OutgoingHttpHeader)
    }
  } else if (headers !== null && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
      if (value !== undefined) res.setHeader(name, value)
    }
  }
}

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
 * ever reaches the page's script. Safe in any state: once headers are out (a handler that
 * flushed them), the body is passed through as written.
 */
export function interceptJsonAnswer(res: InterceptableResponse, callback: string): void {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end }
  const chunks: Buffer[] = []
  let size = 0
  let tooLarge = false
  const keep = (buffer: Buffer | undefined): void => {
    if (buffer === undefined || tooLarge) return
    size += buffer.byteLength
    if (size > MAX_JSONP_SOURCE_BYTES) {
      tooLarge = true
      chunks.length = 0
    } else chunks.push(buffer)
  }
  res.writeHead = function jsonpWriteHead(status: number, ...rest: unknown[]) {
    res.statusCode = status
    applyHeaders(res, typeof rest[0] === 'string' ? rest[1] : rest[0])
    return res
  }
  res.write = function jsonpWrite(chunk: unknown, ...rest: unknown[]) {
    keep(toBuffer(chunk, rest[0]))
    const done = rest.find((item) => typeof item === 'function') as (() => void) | undefined
    done?.()
    return true
  }
  res.end = function jsonpEnd(...args: unknown[]) {
    keep(toBuffer(args[0], args[1]))
    res.writeHead = original.writeHead
    res.write = original.write
    res.end = original.end
    const body = Buffer.concat(chunks)
    if (res.headersSent) return res.end(body)
    if (tooLarge) {
      const error = `{"error":"the answer is larger than ${MAX_JSONP_SOURCE_BYTES} bytes, too large to wrap as JSONP"}\n`
      for (const name of ['content-encoding', 'etag', 'last-modified']) res.removeHeader(name)
      res.statusCode = 502
      res.setHeader('content-type', 'application/json; charset=utf-8')
      res.setHeader('content-length', Buffer.byteLength(error))
      return res.end(error)
    }
    const contentType = res.getHeader('content-type')
    const isJson = isJsonContentType(contentType === undefined ? undefined : String(contentType))
    const text = isJson ? decodedText(body, res.getHeader('content-encoding')) : undefined
    const wrapped = text === undefined ? undefined : wrapJsonText(callback, text)
    if (wrapped === undefined) return res.end(body)
    res.setHeader('content-type', JSONP_CONTENT_TYPE)
    res.setHeader('x-content-type-options', 'nosniff')
    res.setHeader('content-length', Buffer.byteLength(wrapped))
    // The encoding and the validators described the JSON, not the script.
    for (const name of ['content-encoding', 'etag', 'content-md5']) res.removeHeader(name)
    return res.end(wrapped)
  }
}
