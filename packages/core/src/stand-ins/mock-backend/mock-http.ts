import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'

/**
 * The part of a response the mock backend uses. Both `http.ServerResponse` and
 * `http2.Http2ServerResponse` fit it, so one handler serves HTTP/1.1 and HTTP/2
 * (their own overloaded signatures cannot be called through a plain union).
 */
export interface MockResponse {
  statusCode: number
  readonly headersSent: boolean
  readonly writableEnded: boolean
  readonly destroyed: boolean
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  getHeader(name: string): OutgoingHttpHeader | undefined
  getHeaders(): OutgoingHttpHeaders
  removeHeader(name: string): void
  write(chunk: string | Uint8Array): boolean
  end(chunk?: string | Uint8Array): unknown
  on(event: 'close' | 'finish', listener: () => void): unknown
}

/** The protocol a request arrived on, as the echo reports it. */
export type MockProtocol = 'http/1.0' | 'http/1.1' | 'h2'

/** `req.httpVersion` as an ALPN-style protocol name. */
export function requestProtocol(req: ProxyRequest): MockProtocol {
  if (req.httpVersionMajor === 2) return 'h2'
  return req.httpVersion === '1.0' ? 'http/1.0' : 'http/1.1'
}

/** Whether the request is on HTTP/1.x, where connection-specific headers are allowed. */
function isHttp1(req: ProxyRequest): boolean {
  return req.httpVersionMajor === 1
}

/**
 * Answers with a JSON body. Safe to call in any state: once headers are out it only ends
 * the response, since request-time code must never throw.
 */
export function sendJson(res: MockResponse, status: number, value: unknown): void {
  sendText(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`)
}

/**
 * Asks HTTP/1.x clients to close the connection after this response, used when the body was
 * not read to the end. HTTP/2 forbids the header (RFC 9113 §8.2.2), and the stream ends on its own.
 */
export function closeAfterResponse(req: ProxyRequest, res: MockResponse): void {
  if (isHttp1(req) && !res.headersSent) res.setHeader('connection', 'close')
}

/** A request target (path and query), parsed against a dummy base; `undefined` when unparseable. */
export function parseRequestTarget(target: string): URL | undefined {
  // An absolute-form or authority-form target is not a path: the mock only serves paths.
  if (!target.startsWith('/')) return undefined
  try {
    return new URL(target, 'http://mock.invalid')
  } catch {
    return undefined
  }
}

/** A request header as one string (repeated headers joined by `, `, RFC 9110 §5.3). */
export function headerValue(req: ProxyRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** The request's headers as the echo and the log show them: HTTP/2 pseudo-headers (`:path`...) left out. */
export function plainRequestHeaders(req: ProxyRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !name.startsWith(':')) headers[name] = value
  }
  return headers
}
