import { Readable } from 'node:stream'
import { Agent } from 'undici'
import type { BrowserAnswer, BrowserRequest, BrowserSend } from './browser-call.js'
import { http2OnlyConnector } from './http2-only-connector.js'
import { isStreamBody, type RequestBodyInput } from './request-body.js'
import { alpnNegotiationError } from './streaming-upload.js'

/** Options of {@link createNetworkSend}. */
export interface NetworkSendOptions {
  /** Milliseconds to wait for each answer. */
  readonly timeout: number
  /** Verify the server's TLS certificate. */
  readonly secure: boolean
}

/** A {@link BrowserSend} over the network, and the connection pool to close after use. */
export interface NetworkSend {
  readonly send: BrowserSend
  close(): Promise<void>
}

/** The bytes of a body as undici sends them; a `FormData` is re-encoded with the boundary its `Content-Type` names. */
async function wireBody(
  body: RequestBodyInput | null | undefined,
  headers: Record<string, string>,
): Promise<string | Uint8Array | Readable | undefined> {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return body
  if (isStreamBody(body))
    return Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)
  const encoded = new Request('http://body.invalid/', { method: 'POST', body: body as BodyInit })
  // FormData gets a fresh boundary at each encoding: the header must name this one.
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const type = encoded.headers.get('content-type')
    if (type !== null) headers['content-type'] = type
  }
  return new Uint8Array(await encoded.arrayBuffer())
}

/**
 * The request target as the browser sends it (RFC 9112 §3.2 origin-form): the path and query of
 * the URL, an empty `?` kept (a URL of its own for the preflight cache; undici's `request(url)`
 * would drop it), without its fragment or its `user:password@`, which never go on the wire.
 *
 * @example
 * requestTarget('http://u:p@127.0.0.1:3000/a?#f') // { origin: 'http://127.0.0.1:3000', path: '/a?' }
 */
export function requestTarget(url: string): { origin: string; path: string } {
  const target = new URL(url)
  target.username = ''
  target.password = ''
  target.hash = ''
  return { origin: target.origin, path: target.href.slice(target.origin.length) || '/' }
}

/**
 * Sends the model's requests with undici, one request per hop and never following a redirect
 * itself (the model follows them, as the browser does, checking CORS at each hop). Requests go
 * over HTTP/1.1, but a streaming upload, which Chromium sends only over HTTP/2: over `https:` on a
 * connection that agreed on `h2` by ALPN, refused otherwise (an error with `code`
 * `ERR_ALPN_NEGOTIATION_FAILED`, before anything is sent). The answer's body is read and dropped:
 * the verdict depends on the head only.
 *
 * @example
 * const network = createNetworkSend({ timeout: 10_000, secure: true })
 * const browser = createBrowserModel({ origin: 'http://localhost:5173', send: network.send })
 */
export function createNetworkSend(options: NetworkSendOptions): NetworkSend {
  const dispatcher = new Agent({
    headersTimeout: options.timeout,
    bodyTimeout: options.timeout,
    connect: { rejectUnauthorized: options.secure },
  })
  const streaming = new Agent({
    allowH2: true,
    headersTimeout: options.timeout,
    bodyTimeout: options.timeout,
    connect: http2OnlyConnector(options),
  })
  async function send(outgoing: BrowserRequest): Promise<BrowserAnswer> {
    const { origin, path } = requestTarget(outgoing.url)
    const http2 = isStreamBody(outgoing.body)
    if (http2 && !origin.startsWith('https:')) throw alpnNegotiationError(origin)
    const headers: Record<string, string> = {}
    for (const [name, value] of outgoing.headers) headers[name] = value
    const body = await wireBody(outgoing.body, headers)
    const answer = await (http2 ? streaming : dispatcher).request({
      origin,
      path,
      method: outgoing.method,
      headers,
      body,
    })
    await answer.body.dump()
    const responseHeaders: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) responseHeaders[name] = value
    }
    return { status: answer.statusCode, headers: responseHeaders, protocol: http2 ? 'h2' : 'http/1.1' }
  }
  return {
    send,
    close: async () => {
      await Promise.all([dispatcher.close(), streaming.close()])
    },
  }
}
