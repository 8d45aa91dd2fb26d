import { isStreamBody, type RequestBodyInput } from './request-body.js'

/**
 * The `code` of the error a {@link BrowserSend} rejects with when it will not send a streaming
 * upload because the server offers no HTTP/2: Chromium's `net::ERR_ALPN_NEGOTIATION_FAILED`.
 * `createNetworkSend` gives it; a scripted `send` throws an error with this `code` to play a
 * server that speaks only HTTP/1.1.
 *
 * @example
 * const send = async () => { throw Object.assign(new Error('no h2'), { code: ALPN_NEGOTIATION_FAILED }) }
 */
export const ALPN_NEGOTIATION_FAILED = 'ERR_ALPN_NEGOTIATION_FAILED'

/** Chromium's console line for a streaming upload to a server that cannot take one (measured in Chromium 156). */
export const ALPN_FAILURE_ERROR = 'net::ERR_ALPN_NEGOTIATION_FAILED'

/** What the model says when a streaming upload cannot leave: the reason, by the URL's scheme. */
export type StreamRefusal = 'cleartext' | 'http1-server'

/**
 * Whether a request must go over HTTP/2 or later: a `ReadableStream` body (Fetch §4.1 "main fetch",
 * Chromium's `HttpNetworkTransaction`: a streaming upload on HTTP/1.1 would need chunked encoding,
 * which Chromium never sends). Chromium speaks HTTP/2 only over TLS, so an `http:` URL never gets
 * there: measured in Chromium 156, the preflight the stream forces goes out, the request never does,
 * same-origin too.
 *
 * @example
 * streamingUploadRefusal('http://127.0.0.1:3000/up', new ReadableStream()) // 'cleartext'
 */
export function streamingUploadRefusal(
  url: string,
  body: RequestBodyInput | null | undefined,
): 'cleartext' | undefined {
  return isStreamBody(body) && url.startsWith('http:') ? 'cleartext' : undefined
}

/** Whether `error` is a send's refusal of a streaming upload (see {@link ALPN_NEGOTIATION_FAILED}). */
export function isAlpnRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === ALPN_NEGOTIATION_FAILED
}

/**
 * The `networkError` reason of a refused streaming upload, with what to do.
 *
 * @example
 * streamRefusalReason('http1-server') // 'a streaming upload needs HTTP/2, and the server offers only HTTP/1.1'
 */
export function streamRefusalReason(refusal: StreamRefusal): string {
  return refusal === 'cleartext'
    ? 'a streaming upload needs HTTP/2, and http: URLs are HTTP/1.1'
    : 'a streaming upload needs HTTP/2, and the server offers only HTTP/1.1'
}

/**
 * The error a send rejects with when the server at `origin` did not agree on HTTP/2 for a streaming upload.
 *
 * @example
 * throw alpnNegotiationError('https://127.0.0.1:8443')
 */
export function alpnNegotiationError(origin: string): Error {
  return Object.assign(new Error(`${origin} offers no HTTP/2 (ALPN), which a streaming upload needs`), {
    code: ALPN_NEGOTIATION_FAILED,
  })
}
