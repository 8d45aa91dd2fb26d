import { type HeadersInput, headerEntries } from '../http/header-list.js'
import type { CorsInitiator } from './chromium-messages.js'

/**
 * A body a page's script passes to `fetch` or `XMLHttpRequest.send`: the kinds that decide
 * what the browser sends as `Content-Type` and whether it must preflight.
 */
export type RequestBodyInput =
  | string
  | Blob
  | URLSearchParams
  | FormData
  | ArrayBuffer
  | ArrayBufferView
  | ReadableStream<Uint8Array>

/** Whether the body is a stream: a streaming upload, always preflighted (Fetch standard §4.1 main fetch). */
export function isStreamBody(body: RequestBodyInput | null | undefined): body is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && body instanceof ReadableStream
}

/**
 * The `Content-Type` the browser derives from a body when the script set none (Fetch
 * standard §5.2 "extract a body"): `text/plain;charset=UTF-8` for a string,
 * `application/x-www-form-urlencoded;charset=UTF-8` for `URLSearchParams`, `multipart/form-data;
 * boundary=…` for `FormData`, a `Blob`'s own `type` when it has one, and none for bytes or a
 * stream. Node's `Request` runs the same algorithm, so it is asked rather than re-implemented.
 *
 * @example
 * bodyContentType(new Blob(['{}'], { type: 'application/json' })) // 'application/json'
 */
export function bodyContentType(body: RequestBodyInput | null | undefined): string | undefined {
  if (body === undefined || body === null || isStreamBody(body)) return undefined
  const request = new Request('http://body.invalid/', { method: 'POST', body: body as BodyInit })
  return request.headers.get('content-type') ?? undefined
}

/**
 * The script's headers plus the `Content-Type` the body implies, as the browser's request
 * carries them: the script's own `Content-Type` wins (Fetch standard: "if ... does not contain
 * `Content-Type`, append"), so a body only adds one when the script set none.
 *
 * @example
 * headersWithBody({ 'x-a': '1' }, new Blob([], { type: 'application/json' }))
 * // [['x-a', '1'], ['content-type', 'application/json']]
 */
export function headersWithBody(
  headers: HeadersInput | undefined,
  body: RequestBodyInput | null | undefined,
  initiator: CorsInitiator = 'fetch',
): Array<readonly [string, string]> {
  let entries: Array<readonly [string, string]> = headerEntries(headers)
  if (initiator === 'XMLHttpRequest' && typeof body === 'string') {
    entries = entries.map(([name, value]) => [name, name === 'content-type' ? withUtf8Charset(value) : value])
  }
  const type = bodyContentType(body)
  if (type === undefined || entries.some(([name]) => name === 'content-type')) return entries
  return [...entries, ['content-type', type]]
}

/**
 * XMLHttpRequest's rewrite of a script-set `Content-Type` for a string body: a `charset`
 * parameter becomes `UTF-8`, spacing kept (`text/plain; charset=ISO-8859-1` is sent as
 * `text/plain; charset=UTF-8`); fetch never rewrites. Checked in Chromium 156.
 *
 * @example
 * withUtf8Charset('text/plain;charset=latin1') // 'text/plain;charset=UTF-8'
 */
export function withUtf8Charset(value: string): string {
  return value.replace(/(;[\t ]*charset[\t ]*=[\t ]*)("[^"]*"|[^;\t ]*)/i, '$1UTF-8')
}
