/**
 * A one-shot abort signal in the EventEmitter shape undici accepts for `signal` (`aborted`,
 * `on`/`once`/`removeListener` of `'abort'`). The forwarder needs one per request, to cancel
 * the upstream request when the client goes away; an `AbortController` (an EventTarget) costs
 * about a tenth of the proxy's throughput on small requests, this costs next to nothing.
 * It holds one listener, which is all undici registers.
 *
 * @example
 * const abort = new ClientAbort()
 * res.once('close', () => abort.abort())
 * pool.request({ path: '/', method: 'GET', signal: abort.signal })
 */
export class ClientAbort {
  /** Whether {@link abort} was called; undici reads it before it listens. */
  aborted = false
  /** Why: what undici rejects the request with (`undefined`: its own `RequestAbortedError`). */
  reason: Error | undefined
  #listener: (() => void) | undefined

  /** Registers the one listener (undici's). */
  on(_event: 'abort', listener: () => void): this {
    this.#listener = listener
    return this
  }

  /** Same as {@link on}: the listener is called at most once anyway. */
  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener)
  }

  /** Forgets the listener (undici calls it when the request completes). */
  removeListener(_event: 'abort', listener: () => void): this {
    if (this.#listener === listener) this.#listener = undefined
    return this
  }

  /** Aborts: calls the listener once. Later calls do nothing. */
  abort(reason?: Error): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    const listener = this.#listener
    this.#listener = undefined
    listener?.()
  }

  /** This object typed as undici's `signal` option, which takes any EventEmitter-like object. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal
  }
}
