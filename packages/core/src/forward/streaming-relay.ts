import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { takesFlatHead } from '../http/response-head.js'
import { errorCode } from './proxy-error.js'
import type { RawField } from './raw-headers.js'
import { answerBrokenOff, isBodiless, isEventStream, writeUpstreamHead } from './relay-response.js'
import {
  buildClientHeaders,
  buildClientHeadList,
  type ClientConnection,
  headValue,
} from './response-headers.js'
import { abortResponse, isResponseClosed } from './response-state.js'
import { ClientGoneError, COLLECTING, DONE, HOOKING, RELAYING, UpstreamRelay } from './upstream-relay.js'

/**
 * One forwarded request whose answer is streamed: the head with one `writeHead`, each chunk
 * with `res.write`, pausing undici while the client's side is full and resuming it on
 * `'drain'`. No body stream and no promise sit between the two sockets: this is the shape of
 * the minimal `dispatch()` proxy of the benchmark, and it costs about half the CPU per request
 * of undici's `request()` with its body stream piped into the response.
 *
 * Heads are cleaned as `buildClientHeaders` does (written from undici's raw list as a flat list,
 * `buildClientHeadList`, when no `proxyRes` hook needs the object and the client speaks
 * HTTP/1.1), bodiless answers end at once, event streams get their head flushed; a failure in the middle of the body breaks off the client's
 * response, so a short body is never taken for a whole one. Sending, the deadline, retries and
 * the `proxyRes` hooks are {@link UpstreamRelay}'s.
 *
 * @example
 * new StreamingRelay({ context, req, res, route, dispatch, rewriteLocation, label, path, body }).start(pool.poolFor(route))
 */
export class StreamingRelay extends UpstreamRelay {
  protected answer(statusCode: number, upstreamHeaders: IncomingHttpHeaders): boolean {
    return this.sendHead(
      statusCode,
      buildClientHeaders(upstreamHeaders, this.route, this.#client(statusCode)),
    )
  }

  protected override answerRaw(statusCode: number, rawHeaders: readonly RawField[]): boolean {
    // The object instead: an HTTP/2 client needs repeated fields combined into one line; and
    // over headers already on `res` (a dev server's own), Node 20's `writeHead` sets each field
    // of a flat list in turn, so a second Set-Cookie line would replace the first.
    // And a writeHead a middleware replaced may take objects only (`takesFlatHead`).
    if (this.req.httpVersionMajor === 2 || this.res.getHeaderNames().length > 0 || !takesFlatHead(this.res)) {
      return super.answerRaw(statusCode, rawHeaders)
    }
    return this.sendHead(statusCode, buildClientHeadList(rawHeaders, this.route, this.#client(statusCode)))
  }

  #client(statusCode: number): ClientConnection {
    const { req } = this
    return {
      http2: req.httpVersionMajor === 2,
      rewriteLocation: this.rewriteLocation,
      request: req,
      statusCode,
    }
  }

  /** Writes the client's head (cleaned, either shape); `false` when the body is not relayed. */
  protected sendHead(statusCode: number, headers: OutgoingHttpHeaders | string[]): boolean {
    const { req, res } = this
    if (!writeUpstreamHead(req, res, statusCode, headers, this.route.target, this.context.logger)) {
      this.finish()
      return false
    }
    if (isBodiless(req.method, statusCode)) {
      // Nothing to relay. A server that sends `Content-Length: N` on a 204 or 304 makes undici
      // fail the (empty) body with a length mismatch, after the client's answer is complete.
      this.state = DONE
      res.end()
      return true
    }
    if (isEventStream(headValue(headers, 'content-type')) && 'flushHeaders' in res) res.flushHeaders()
    return true
  }

  protected releaseHeld(): void {
    const held = this.held ?? []
    this.held = undefined
    for (const chunk of held) {
      if (this.state !== RELAYING) return
      ;(this.res as { write(chunk: Buffer): boolean }).write(chunk)
    }
    if (this.heldComplete) {
      this.onComplete()
      return
    }
    if (this.state === RELAYING) this.resume?.()
  }

  onData(chunk: Buffer): boolean {
    if (this.state === HOOKING) {
      this.heldBytes += chunk.byteLength
      this.held?.push(chunk)
      return false
    }
    if (this.state !== RELAYING) return true
    if ((this.res as { write(chunk: Buffer): boolean }).write(chunk)) return true
    // The client's side is full: undici pauses until it drains.
    this.res.once('drain', this.resume as () => void)
    return false
  }

  onComplete(): void {
    if (this.state === HOOKING) {
      this.heldComplete = true
      return
    }
    if (this.state !== RELAYING) return
    this.state = DONE
    this.res.end()
  }

  protected bodyFailed(state: number, error: Error): void {
    const { req, res, label } = this
    const { logger } = this.context
    if (state === HOOKING || state === COLLECTING) {
      // Nothing went to the client yet: it can still get a status (the forwarder's 502),
      // unless it left.
      this.held = undefined
      if (this.gone instanceof ClientGoneError || isResponseClosed(res)) {
        logger.debug(`${req.method} ${req.url}: the client went away during the response of ${label}`)
        return
      }
      answerBrokenOff(req, res, label, error, logger)
      return
    }
    // The head went out: no status can be sent any more, so the client must see a failure.
    abortResponse(res)
    if (this.gone instanceof ClientGoneError) {
      logger.debug(`${req.method} ${req.url}: the client went away during the response of ${label}`)
      return
    }
    logger.warn(
      `${req.method} ${req.url} → ${label}: the server broke off its response (${errorCode(error) ?? error.message}); the browser sees a network error: check the server's log`,
      `${label} response broke off`,
    )
  }
}
