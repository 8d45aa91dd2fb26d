import { Readable } from 'node:stream'
import type { ProxyRequest } from '../http/proxy-types.js'

/**
 * The client's request body as a stream of its own, for undici to send upstream.
 *
 * Why not `req` itself: undici destroys the body stream it was handed once the upload is sent,
 * the target answered early, reset or timed out, and for an `IncomingMessage` it sets
 * `req.socket = null` first. The client's request is the dev server's, not ours: Nuxt's listener
 * (an http-shutdown-style tracker) reads `req.socket` when the answer finishes, and threw on
 * every proxied POST; an `Http2ServerRequest` destroyed that way takes its stream, answer
 * included, with it. Here undici destroys this wrapper; `req` comes out as it went in.
 *
 * Back-pressure is kept: `req` flows only while undici reads (the wrapper's `_read`), and pauses
 * when the wrapper's buffer is full. When undici stops before the end (an early answer, a reset,
 * a timeout), the rest of the upload is drained and dropped, as Node's server does with a body
 * nobody reads, so the connection stays usable for the client's next request. A client that goes
 * away mid-upload errors the wrapper, which aborts the upstream request.
 *
 * @example
 * pool.dispatch({ method: 'POST', path: '/items', headers, body: requestStream(req) }, handler)
 * // `prefix`: bytes to send before the client's (what a `proxyReq` hook wrote)
 */
export function requestStream(req: ProxyRequest, prefix?: Buffer): Readable {
  return new RequestStream(req, prefix)
}

class RequestStream extends Readable {
  readonly #req: ProxyRequest
  #prefix: Buffer | undefined
  #attached = false

  constructor(req: ProxyRequest, prefix: Buffer | undefined) {
    super()
    this.#req = req
    this.#prefix = prefix
  }

  readonly #onData = (chunk: Buffer): void => {
    if (!this.push(chunk)) this.#req.pause()
  }

  readonly #onEnd = (): void => {
    this.#detach()
    this.push(null)
  }

  readonly #onError = (error: Error): void => {
    this.destroy(error)
  }

  readonly #onClose = (): void => {
    // 'close' after 'end' is the normal course; before it, the client went away mid-upload.
    if (!this.#req.readableEnded)
      this.destroy(new Error('the client closed the request before its body ended'))
  }

  override _read(): void {
    if (this.#prefix !== undefined) {
      // What a `proxyReq` hook wrote goes first, as http-proxy sends it before piping `req`.
      const prefix = this.#prefix
      this.#prefix = undefined
      if (!this.push(prefix)) return
    }
    if (!this.#attached) {
      this.#attached = true
      const req = this.#req
      if (req.readableEnded) {
        this.push(null)
        return
      }
      req.on('data', this.#onData)
      req.once('end', this.#onEnd)
      req.once('error', this.#onError)
      req.once('close', this.#onClose)
    }
    this.#req.resume()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const req = this.#req
    const wasAttached = this.#attached
    this.#detach()
    // The body is not needed any more: drop what is left of it, as Node's server does with an
    // unread body, instead of leaving the client's upload (and its connection) stalled.
    if (wasAttached && !req.readableEnded && !req.destroyed) req.resume()
    callback(error)
  }

  #detach(): void {
    if (!this.#attached) return
    this.#attached = false
    const req = this.#req
    req.off('data', this.#onData)
    req.off('end', this.#onEnd)
    req.off('error', this.#onError)
    req.off('close', this.#onClose)
  }
}
