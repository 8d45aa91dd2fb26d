import type { OutgoingHttpHeader } from 'node:http'

/**
 * The part of a response a short answer needs. `http.ServerResponse` and
 * `http2.Http2ServerResponse` both fit it; `removeHeader` and `destroyed` are used when present.
 */
export interface TextResponse {
  statusCode: number
  readonly headersSent: boolean
  readonly writableEnded: boolean
  readonly destroyed?: boolean
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  removeHeader?(name: string): void
  end(): unknown
  end(chunk: string): unknown
}

/** Statuses whose answer carries no content (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const NO_CONTENT_STATUSES: ReadonlySet<number> = new Set([204, 205, 304])

/**
 * Answers with a short body of `contentType` (and the `extra` headers), never throwing, since
 * it runs at request time: a response already ended or destroyed is left alone, one whose head
 * is already out can only be ended, and 204, 205 and 304 are sent without content.
 *
 * @example
 * sendText(res, 400, 'application/json; charset=utf-8', '{"error":"bad switch"}\n')
 */
export function sendText(
  res: TextResponse,
  status: number,
  contentType: string,
  body: string,
  extra: ReadonlyArray<readonly [name: string, value: string]> = [],
): void {
  if (res.writableEnded || res.destroyed === true) return
  if (res.headersSent) {
    res.end()
    return
  }
  res.statusCode = status
  if (NO_CONTENT_STATUSES.has(status)) {
    res.removeHeader?.('content-type')
    // Node sends no body for 204 and 304 itself, but would for 205; a Content-Length for a body
    // that is never sent makes clients fail the response, so 205 says it is empty.
    if (status === 205) res.setHeader('content-length', '0')
    res.end()
    return
  }
  res.setHeader('content-type', contentType)
  for (const [name, value] of extra) res.setHeader(name, value)
  res.setHeader('content-length', Buffer.byteLength(body))
  res.end(body)
}
