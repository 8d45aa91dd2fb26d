import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { Logger } from '../log/logger.js'
import { type HookFailure, runHooksSyncFirst } from './hook-runner.js'
import type { LocationRewriter } from './location-rewrite.js'
import { errorCode } from './proxy-error.js'
import { headersFromRaw } from './raw-headers.js'
import { answerBrokenOff, isBodiless, isEventStream, writeUpstreamHead } from './relay-response.js'
import { generationOf, streamReset } from './renewable-dispatcher.js'
import { ResponseTimeoutError, whenBodySent } from './response-deadline.js'
import { buildClientHeaders } from './response-headers.js'
import { abortResponse, isResponseClosed } from './response-state.js'
import { isTransformable, MAX_TRANSFORM_BYTES } from './transform-answer.js'

/** What a {@link DirectRelay} hands back to the forwarder of its route. */
export interface DirectRelayOwner {
  readonly logger: Logger
  /** The head arrived and is about to be relayed: the failure log, the hints, the debug line. */
  answered(relay: DirectRelay, statusCode: number, headers: IncomingHttpHeaders): void
  /**
   * The request failed before any answer (refused, reset, the route's `timeout`): the forwarder
   * answers 502/504. Not called when the client went away first.
   */
  failed(relay: DirectRelay, error: Error): void
  /**
   * Whether the request may be sent once more after `error` (the keep-alive race, see
   * `mayRetry`); when it may, the owner sends it again with the same relay as its handler.
   */
  retried(relay: DirectRelay, error: Error): boolean
  /**
   * The whole answer of a route with `transformResponse`, read into memory: the head after the
   * `proxyRes` hooks and the body as the target sent it (still encoded), or `undefined` when it
   * grew past `MAX_TRANSFORM_BYTES` (the upstream request is then already dropped). Nothing has
   * been sent to the client: the owner transforms and answers.
   */
  collected(
    relay: DirectRelay,
    statusCode: number,
    headers: IncomingHttpHeaders,
    body: Buffer | undefined,
  ): void
}

/** The relay's progress: waiting for the head, relaying the body, or finished. */
const WAITING = 0
const RELAYING = 1
const DONE = 2
/** The head arrived and an async `proxyRes` hook runs: the body waits, held back. */
const HOOKING = 3
/** The body is read into memory for `transformResponse`: nothing goes to the client before its end. */
const COLLECTING = 4

/** The reason an upstream request is aborted when the client leaves: only ever logged at debug. */
class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError'
}

function fireDeadline(relay: DirectRelay): void {
  relay.expire()
}

/**
 * One forwarded request, as an undici `dispatch()` handler that writes the upstream's answer
 * straight into the client's response: the head with one `writeHead`, each chunk with
 * `res.write`, pausing undici while the client's side is full and resuming it on `'drain'`.
 * No body stream and no promise sit between the two sockets: this is the shape of the minimal
 * `dispatch()` proxy of the benchmark, and it costs about half the CPU per request of undici's
 * `request()` with its body stream piped into the response.
 *
 * It keeps every behaviour of the forwarder:
 * - the route's `timeout` (its own timer; undici ticks its timers coarsely) aborts the request when no
 *   head came in time once the request was sent, which the owner answers 504;
 * - the client leaving aborts the upstream request (and drops that connection), before or
 *   during the answer;
 * - a failure before the head goes to the owner (502, the `error` hooks), once any retry is
 *   spent; a failure in the middle of the body breaks off the client's response, so a short
 *   body is never taken for a whole one;
 * - heads are cleaned as `buildClientHeaders` does, bodiless answers end at once, event
 *   streams get their head flushed;
 * - the `proxyRes` hooks see the head first (an async one holds the body back), and on a route
 *   with `transformResponse` the body is collected, up to `MAX_TRANSFORM_BYTES`, and handed to
 *   the owner whole (`DirectRelayOwner.collected`).
 *
 * @example
 * const relay = new DirectRelay(owner, req, res, route, options, undefined, 'http://localhost:3000')
 * relay.start(pool.poolFor(route))
 */
export class DirectRelay implements Dispatcher.DispatchHandler {
  /** undici's abort of the current attempt; `undefined` before it connects. */
  #abort: ((error?: Error) => void) | undefined
  /** Where the request went, told when the relay resets it (see `streamReset`). */
  #dispatcher: Dispatcher | undefined
  /** The generation of that dispatcher's connections the request went to (see `generationOf`). */
  generation = 0
  #resume: (() => void) | undefined
  #timer: NodeJS.Timeout | undefined
  #state = WAITING
  /** Why the relay gave up on the upstream itself: the client left, or the deadline passed. */
  #gone: Error | undefined
  /** Whether this request was already sent a second time (see `DirectRelayOwner.retried`). */
  retriedOnce = false
  /**
   * While an async `proxyRes` hook runs, or the body is collected for `transformResponse`: the
   * chunks that arrived, their size, and whether the body ended.
   */
  #held: Buffer[] | undefined
  #heldBytes = 0
  #heldComplete = false
  /** The head the collected body belongs to (after the `proxyRes` hooks). */
  #collectedStatus = 0
  #collectedHeaders: IncomingHttpHeaders | undefined

  constructor(
    readonly owner: DirectRelayOwner,
    readonly req: ProxyRequest,
    readonly res: ProxyResponse,
    /** The route, with the target `router` chose. */
    readonly route: ResolvedForwardRoute,
    /** What undici sends: method, path, headers, body. */
    readonly options: Dispatcher.DispatchOptions,
    /** Points redirects at the target back at the dev server. */
    readonly rewriteLocation: LocationRewriter | undefined,
    /** The target as the logs name it (`targetLabel`). */
    readonly label: string,
  ) {}

  /** Sends the request on `dispatcher` and arms the route's `timeout`. */
  start(dispatcher: Dispatcher): void {
    // The target's time to answer counts once the request is sent, a streamed upload included.
    whenBodySent(this.options.body, () => {
      if (this.#state === WAITING && this.#gone === undefined) {
        this.#timer = setTimeout(fireDeadline, this.route.timeout, this)
      }
    })
    // Whatever closed the response (the client leaving, or a step that answered in the relay's
    // place, as JSONP does past its size limit), the rest of the answer has nowhere to go.
    this.res.once('close', () => {
      if (this.#state !== DONE) this.#leave(new ClientGoneError('the client went away'))
    })
    this.send(dispatcher)
  }

  /** Hands the request to `dispatcher`: the first time, and again for a retry. */
  send(dispatcher: Dispatcher): void {
    this.#dispatcher = dispatcher
    this.generation = generationOf(dispatcher)
    dispatcher.dispatch(this.options, this)
  }

  /** The route's `timeout` ran out before the head: the request is aborted, answered 504. */
  expire(): void {
    if (this.#state === WAITING) this.#leave(new ResponseTimeoutError(this.route.timeout))
  }

  #leave(reason: Error): void {
    if (this.#gone !== undefined || this.#state === DONE) return
    this.#gone = reason
    if (this.#abort !== undefined) {
      this.#reset(reason)
      return
    }
    // Not connected yet (undici hands over its abort once the connection is up, and aborts
    // then, see `onConnect`): a deadline is answered now rather than when connecting ends.
    if (reason instanceof ResponseTimeoutError) {
      this.#state = DONE
      this.owner.failed(this, reason)
    }
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.#gone !== undefined) abort(this.#gone)
    else this.#abort = abort
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx interim answers are undici's and Node's business; only the final head is relayed.
    if (statusCode < 200) return true
    clearTimeout(this.#timer)
    const { req, res } = this
    this.#state = RELAYING
    this.#resume = resume
    const upstreamHeaders = headersFromRaw(rawHeaders)
    this.owner.answered(this, statusCode, upstreamHeaders)
    if (isResponseClosed(res)) {
      this.#finish()
      return false
    }
    const hooks = this.route.hooks.proxyRes
    if (hooks.length === 0) return this.#answer(statusCode, upstreamHeaders)
    // http-proxy-middleware's `proxyRes(proxyRes, req, res)`: what the hooks change in the
    // status and the headers is what the client gets.
    const proxyRes = { statusCode, headers: upstreamHeaders }
    let pending: Promise<void> | undefined
    try {
      pending = runHooksSyncFirst(hooks, [proxyRes, req, res])
    } catch (error) {
      this.#hookFailed(error)
      return false
    }
    if (pending === undefined) return this.#afterHooks(proxyRes.statusCode, proxyRes.headers)
    // An async hook: the body is held back (undici pauses) until it settles.
    this.#state = HOOKING
    this.#held = []
    pending.then(
      () => {
        if (this.#state !== HOOKING) return
        this.#state = RELAYING
        if (!this.#afterHooks(proxyRes.statusCode, proxyRes.headers)) return
        this.#releaseHeld()
      },
      (error: unknown) => {
        if (this.#state === HOOKING) this.#hookFailed(error)
      },
    )
    return false
  }

  /** After the `proxyRes` hooks: the head, unless a hook answered the client itself. */
  #afterHooks(statusCode: number, headers: IncomingHttpHeaders): boolean {
    const { res } = this
    if (res.headersSent || res.writableEnded || isResponseClosed(res)) {
      this.#finish()
      return false
    }
    return this.#answer(statusCode, headers)
  }

  /**
   * The head is final: relayed at once, or, on a route with `transformResponse` and an answer
   * it applies to, kept while the body is collected (see `DirectRelayOwner.collected`).
   */
  #answer(statusCode: number, headers: IncomingHttpHeaders): boolean {
    if (
      this.route.transformResponse === undefined ||
      !isTransformable(this.req.method, statusCode, headers)
    ) {
      return this.#relayHead(statusCode, headers)
    }
    this.#state = COLLECTING
    this.#collectedStatus = statusCode
    this.#collectedHeaders = headers
    this.#held ??= []
    return this.#heldBytes <= MAX_TRANSFORM_BYTES || this.#tooLarge()
  }

  /** The collected body outgrew `MAX_TRANSFORM_BYTES`: the request is dropped, the owner answers. */
  #tooLarge(): false {
    this.#held = undefined
    this.#finish()
    this.owner.collected(this, this.#collectedStatus, this.#collectedHeaders ?? {}, undefined)
    return false
  }

  /** A `proxyRes` hook threw: nothing went to the client, which gets the forwarder's 502 naming it. */
  #hookFailed(error: unknown): void {
    this.#finish()
    // runHooksSyncFirst throws and rejects with a HookFailure only.
    this.owner.failed(this, error as HookFailure)
  }

  /** The body that arrived while an async hook ran, then undici resumed. */
  #releaseHeld(): void {
    if (this.#state === COLLECTING) {
      // The held chunks are the start of the collected body.
      if (this.#heldComplete) this.onComplete()
      else this.#resume?.()
      return
    }
    const held = this.#held ?? []
    this.#held = undefined
    for (const chunk of held) {
      if (this.#state !== RELAYING) return
      ;(this.res as { write(chunk: Buffer): boolean }).write(chunk)
    }
    if (this.#heldComplete) {
      this.onComplete()
      return
    }
    if (this.#state === RELAYING) this.#resume?.()
  }

  /** Writes the client's head from the target's (cleaned); `false` when the body is not relayed. */
  #relayHead(statusCode: number, upstreamHeaders: IncomingHttpHeaders): boolean {
    const { req, res, route } = this
    const headers = buildClientHeaders(upstreamHeaders, route, {
      http2: req.httpVersionMajor === 2,
      rewriteLocation: this.rewriteLocation,
      browserOrigin:
        this.rewriteLocation !== undefined &&
        (upstreamHeaders.location !== undefined || upstreamHeaders['content-location'] !== undefined)
          ? requestedOrigin(req)
          : undefined,
      latin1: true,
    })
    // RFC 9110 section 8.6: no Content-Length on a 204 (HTTP/2 clients refuse it as malformed).
    if (statusCode === 204) delete headers['content-length']
    if (!writeUpstreamHead(req, res, statusCode, headers, route.target, this.owner.logger)) {
      this.#finish()
      return false
    }
    if (isBodiless(req.method, statusCode)) {
      // Nothing to relay. A server that sends `Content-Length: N` on a 204 or 304 makes undici
      // fail the (empty) body with a length mismatch, after the client's answer is complete.
      this.#state = DONE
      res.end()
      return true
    }
    if (isEventStream(headers['content-type']) && 'flushHeaders' in res) res.flushHeaders()
    return true
  }

  onData(chunk: Buffer): boolean {
    if (this.#state === COLLECTING) {
      this.#heldBytes += chunk.byteLength
      if (this.#heldBytes > MAX_TRANSFORM_BYTES) return this.#tooLarge()
      this.#held?.push(chunk)
      return true
    }
    if (this.#state === HOOKING) {
      this.#heldBytes += chunk.byteLength
      this.#held?.push(chunk)
      return false
    }
    if (this.#state !== RELAYING) return true
    if ((this.res as { write(chunk: Buffer): boolean }).write(chunk)) return true
    // The client's side is full: undici pauses until it drains.
    this.res.once('drain', this.#resume as () => void)
    return false
  }

  onComplete(): void {
    if (this.#state === HOOKING) {
      this.#heldComplete = true
      return
    }
    if (this.#state === COLLECTING) {
      this.#state = DONE
      const body = Buffer.concat(this.#held ?? [], this.#heldBytes)
      this.#held = undefined
      this.owner.collected(this, this.#collectedStatus, this.#collectedHeaders ?? {}, body)
      return
    }
    if (this.#state !== RELAYING) return
    this.#state = DONE
    this.res.end()
  }

  onError(error: Error): void {
    const state = this.#state
    this.#state = DONE
    const { req, res, owner } = this
    if (state === WAITING) {
      clearTimeout(this.#timer)
      const gone = this.#gone
      if (gone instanceof ClientGoneError || (gone === undefined && isResponseClosed(res))) {
        owner.logger.debug(`${req.method} ${req.url}: the client went away before ${this.label} answered`)
        return
      }
      if (gone !== undefined) {
        owner.failed(this, gone)
        return
      }
      if (!this.retriedOnce && owner.retried(this, error)) {
        this.#state = WAITING
        this.#abort = undefined
        // The second attempt has the route's whole `timeout` too (its body is in memory).
        this.#timer = setTimeout(fireDeadline, this.route.timeout, this)
        return
      }
      owner.failed(this, error)
      return
    }
    if (state === DONE) return
    if (state === HOOKING || state === COLLECTING) {
      // Nothing went to the client yet: it can still get a status (the forwarder's 502),
      // unless it left.
      this.#held = undefined
      if (this.#gone instanceof ClientGoneError || isResponseClosed(res)) {
        owner.logger.debug(
          `${req.method} ${req.url}: the client went away during the response of ${this.label}`,
        )
        return
      }
      answerBrokenOff(req, res, this.label, error, owner.logger)
      return
    }
    // The head went out: no status can be sent any more, so the client must see a failure.
    abortResponse(res)
    if (this.#gone instanceof ClientGoneError) {
      owner.logger.debug(
        `${req.method} ${req.url}: the client went away during the response of ${this.label}`,
      )
      return
    }
    owner.logger.warn(
      `${req.method} ${req.url} → ${this.label}: the server broke off its response (${errorCode(error) ?? error.message}); the browser sees a network error: check the server's log`,
      `${this.label} response broke off`,
    )
  }

  /** Stops reading the upstream's answer: it will not be relayed (the client left, or a 502 went out instead). */
  #finish(): void {
    this.#state = DONE
    if (this.#abort !== undefined && !this.#heldComplete) {
      this.#reset(new ClientGoneError('the answer is not relayed'))
    }
  }

  /** Aborts the request in flight: undici resets its stream, or drops its connection. */
  #reset(reason: Error): void {
    ;(this.#abort as (error?: Error) => void)(reason)
    if (this.#dispatcher !== undefined) streamReset(this.#dispatcher, this.generation)
  }
}
