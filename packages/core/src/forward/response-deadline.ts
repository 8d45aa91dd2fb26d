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
 * Arms the route's `timeout` for one request: when it runs out before `clear` is called (the
 * answer's head arrived, or the request failed), `abort` fires with a {@link ResponseTimeoutError},
 * which makes undici drop the request and its connection. The forwarder's own timer rather than
 * undici's `headersTimeout`: undici ticks its timers every half second past one second, so a
 * 1.5 s timeout fired at about 2 s. It counts from the moment the request is handed to undici,
 * connecting included.
 *
 * @example
 * const clear = armResponseDeadline(abort, route.timeout)
 * try { return await pool.request({ ...options, signal: abort.signal }) } finally { clear() }
 */
export function armResponseDeadline(abort: ClientAbort, timeout: number): () => void {
  const timer = setTimeout(function responseDeadline() {
    abort.abort(new ResponseTimeoutError(timeout))
  }, timeout)
  return () => clearTimeout(timer)
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
