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
