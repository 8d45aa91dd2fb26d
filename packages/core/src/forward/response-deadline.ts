import { ClientAbort } from './client-abort.js'

/**
 * The error a request fails with when its route's `timeout` runs out before the answer's head.
 * Its code is undici's own for the same case (`UND_ERR_HEADERS_TIMEOUT`), so it is answered 504
 * like undici's would be (see `describeUpstreamError`).
 */
export class ResponseTimeoutError extends Error {
  override readonly name = 'ResponseTimeoutError'
  readonly code = 'UND_ERR_HEADERS_TIMEOUT'

  constructor(readonly timeout: number) {
    super(`no response within ${timeout} ms`)
  }
}

/**
 * Calls `start` once the request's body has been sent upstream: when undici has read a streamed
 * body to its end, at once for a request without one or with a body in memory. The route's
 * `timeout` is the target's time to answer, and a target cannot be blamed for the time a large
 * upload takes to arrive (a 1 GiB upload over a loaded machine took longer than 30 s): nginx's
 * `proxy_read_timeout` likewise starts after the request was sent. A target that answers before
 * reading the whole body stops the wait anyway (the caller's `clear`).
 *
 * @example
 * whenBodySent(options.body, () => armTimer())
 */
export function whenBodySent(body: unknown, start: () => void): void {
  const stream = body as { once?: unknown; readableEnded?: boolean; destroyed?: boolean } | null | undefined
  if (
    stream == null ||
    typeof stream.once !== 'function' ||
    stream.readableEnded === true ||
    stream.destroyed
  ) {
    start()
    return
  }
  ;(stream as NodeJS.ReadableStream).once('end', start)
}

/**
 * Arms the route's `timeout` for one request: when it runs out before `clear` is called (the
 * answer's head arrived, or the request failed), `abort` fires with a {@link ResponseTimeoutError},
 * which makes undici drop the request and its connection. The forwarder's own timer rather than
 * undici's `headersTimeout`: undici ticks its timers every half second past one second, so a
 * 1.5 s timeout fired at about 2 s. It counts from the moment the request is handed to undici,
 * connecting included, or, for a streamed body, from the moment that body was sent
 * (see {@link whenBodySent}).
 *
 * @example
 * const clear = armResponseDeadline(abort, route.timeout, request.body)
 * try { return await pool.request({ ...options, signal: abort.signal }) } finally { clear() }
 */
export function armResponseDeadline(abort: ClientAbort, timeout: number, body?: unknown): () => void {
  let timer: NodeJS.Timeout | undefined
  let cleared = false
  whenBodySent(body, () => {
    if (cleared) return
    timer = setTimeout(function responseDeadline() {
      abort.abort(new ResponseTimeoutError(timeout))
    }, timeout)
  })
  return () => {
    cleared = true
    clearTimeout(timer)
  }
}

/**
 * The caller's signal as a {@link ClientAbort} the deadline can fire too: the forwarder's own is
 * used as it is; any other (an `AbortSignal`, say) is followed by a new one until `release`.
 */
export function abortFor(signal: AbortSignal | undefined): { abort: ClientAbort; release(): void } {
  if (signal instanceof ClientAbort) return { abort: signal, release: () => undefined }
  const abort = new ClientAbort()
  if (signal === undefined) return { abort, release: () => undefined }
  const follow = (): void => abort.abort(signal.reason instanceof Error ? signal.reason : undefined)
  if (signal.aborted) follow()
  else signal.addEventListener('abort', follow, { once: true })
  return { abort, release: () => signal.removeEventListener('abort', follow) }
}
