import { errorCode } from './proxy-error.js'
import type { RequestBody } from './request-body.js'

/** The idempotent methods of RFC 9110 section 9.2.2 (method names are case-sensitive). */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE'])

/**
 * Whether the error says the connection was closed under the request, before any answer: the
 * target closed a kept-alive connection just as the request was written on it (undici's
 * "other side closed" or "closed", a reset, a broken pipe). Not `bad response` (the target did
 * answer, with something undici refuses), nor a timeout or an abort.
 */
function closedUnderRequest(error: unknown): boolean {
  const code = errorCode(error)
  if (code === 'ECONNRESET' || code === 'EPIPE') return true
  if (code !== 'UND_ERR_SOCKET') return false
  const message = (error as Error).message
  return message === 'other side closed' || message === 'closed'
}

/**
 * Whether an HTTP/2 target refused the stream before processing the request (RFC 9113 section
 * 8.7): `REFUSED_STREAM`, or `ENHANCE_YOUR_CALM`, with which Node's HTTP/2 server refuses a
 * stream it has no memory for (`maxSessionMemory`) as the stream opens.
 *
 * @example
 * refusedStream(streamError('Stream closed with error code NGHTTP2_REFUSED_STREAM')) // true
 */
export function refusedStream(error: unknown): boolean {
  if (errorCode(error) !== 'ERR_HTTP2_STREAM_ERROR') return false
  const message = (error as Error).message
  return message.endsWith('NGHTTP2_REFUSED_STREAM') || message.endsWith('NGHTTP2_ENHANCE_YOUR_CALM')
}

/**
 * Whether the request could be sent twice without harm: its method is idempotent (RFC 9110
 * section 9.2.2, never POST or PATCH; a proxy "MUST NOT automatically retry non-idempotent
 * requests", RFC 9112 section 9.3.1) and its body can be sent again (none, or the bytes a body
 * parser left; a streamed body is gone once sent).
 *
 * @example
 * isReplayable('PUT', { kind: 'parsed', bytes }) // true
 * isReplayable('PUT', { kind: 'stream' }) // false
 */
export function isReplayable(method: string, body: RequestBody): boolean {
  return IDEMPOTENT_METHODS.has(method) && (body.kind === 'none' || body.kind === 'parsed')
}

/**
 * Whether a request that failed before its answer's head may be sent once more, on a fresh
 * connection. This is the keep-alive race (RFC 9112 section 9.3.1): a target that closes idle
 * connections without announcing when (no `Keep-Alive: timeout=`) may close one at the instant
 * the proxy reuses it; and an HTTP/2 stream the target refused ({@link refusedStream}). The
 * request must be {@link isReplayable}, and the error must say the connection was closed (or
 * the stream refused) before any answer: the request failed before undici had a response
 * head, so nothing was relayed and the client cannot get parts of two answers.
 *
 * @example
 * mayRetry('GET', { kind: 'none' }, socketError('other side closed')) // true
 * mayRetry('POST', { kind: 'none' }, socketError('other side closed')) // false
 */
export function mayRetry(method: string, body: RequestBody, error: unknown): boolean {
  return isReplayable(method, body) && (closedUnderRequest(error) || refusedStream(error))
}
