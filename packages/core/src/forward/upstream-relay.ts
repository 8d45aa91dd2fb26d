import type { IncomingHttpHeaders } from 'node:http'
// The module's binding, not the global: Node's global `performance` is an accessor, read per use.
import { performance } from 'node:perf_hooks'
import type { Dispatcher } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { ForwardContext } from './forward-context.js'
import { answerFailure } from './forward-failures.js'
import { type HookFailure, runHooksSyncFirst } from './hook-runner.js'
import type { LocationRewriter } from './location-rewrite.js'
import { errorCode } from './proxy-error.js'
import { headersFromRaw, type RawField } from './raw-headers.js'
import { generationOf, streamRefused, streamReset } from './renewable-dispatcher.js'
import type { RequestBody } from './request-body.js'
import { ResponseTimeoutError, whenBodySent } from './response-deadline.js'
import { isResponseClosed } from './response-state.js'
import { mayRetry, refusedStream } from './retry-policy.js'

/** The relay's progress, first: the request is sent, no head came yet. */
export const WAITING = 0
/** The head went to the client; the body is relayed as it comes. */
export const RELAYING = 1
/** Finished: answered, broken off, or abandoned (the client left, a 502 went out instead). */
export const DONE = 2
/** The head arrived and an async `proxyRes` hook runs: the body waits, held back. */
export const HOOKING = 3
/** The body is read into memory for `transformResponse`: nothing goes to the client before its end. */
export const COLLECTING = 4

/** The reason an upstream request is aborted when the client leaves: only ever logged at debug. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError'
}

/** What one forwarded request's relay is made of (see {@link UpstreamRelay}). */
export interface RelayOptions {
  /** The forwarding of the request's route (see `createForwardContext`). */
  readonly context: ForwardContext
  readonly req: ProxyRequest
  readonly res: ProxyResponse
  /** The route, with the target `router` chose. */
  readonly route: ResolvedForwardRoute
  /** What undici sends: method, path, headers, body. */
  readonly dispatch: Dispatcher.DispatchOptions
  /** Points redirects at the target back at the dev server. */
  readonly rewriteLocation: LocationRewriter | undefined
  /** The target as the logs name it (`targetLabel`). */
  readonly label: string
  /** The matched path (for the hints). */
  readonly path: string
  /** What goes up as the body (for the retry). */
  readonly body: RequestBody
}

function fireDeadline(relay: UpstreamRelay): void {
  relay.expire()
}

/**
 * The first half of one forwarded request, as an undici `dispatch()` handler: it sends the
 * request and waits for the answer's head, then hands it to its subclass, which relays the body
 * (`StreamingRelay`) or collects it for `transformResponse` (`CollectingRelay`). Until the head:
 * - the route's `timeout`, when it has one (its own timer; undici ticks its timers coarsely),
 *   aborts the request when no head came in time once the request was sent, answered 504;
 * - the client leaving aborts the upstream request (and drops that connection);
 * - an idempotent request whose kept-alive connection the target closed under it is sent once
 *   more (`mayRetry`); any other failure is answered 502/504 (`forward-failures.ts`);
 * - the `proxyRes` hooks see the head first (an async one holds the body back).
 *
 * @example
 * class CountingRelay extends StreamingRelay {} // a subclass: UpstreamRelay itself is abstract
 * new CountingRelay({ context, req, res, route, dispatch, rewriteLocation, label, path, body }).start(pool.poolFor(route))
 */
export abstract class UpstreamRelay implements Dispatcher.DispatchHandler {
  readonly context: ForwardContext
  readonly req: ProxyRequest
  readonly res: ProxyResponse
  readonly route: ResolvedForwardRoute
  readonly options: Dispatcher.DispatchOptions
  readonly rewriteLocation: LocationRewriter | undefined
  readonly label: string
  readonly path: string
  readonly body: RequestBody
  /** undici's abort of the current attempt; `undefined` before it connects. */
  #abort: ((error?: Error) => void) | undefined
  /** Where the request went, told when the relay resets it (see `streamReset`). */
  #dispatcher: Dispatcher | undefined
  /** The generation of that dispatcher's connections the request went to (see `generationOf`). */
  #generation = 0
  #timer: NodeJS.Timeout | undefined
  /** Whether this request was already sent a second time (see {@link UpstreamRelay.retry}). */
  #retried = false
  protected resume: (() => void) | undefined
  protected state = WAITING
  /** Why the relay gave up on the upstream itself: the client left, or the deadline passed. */
  protected gone: Error | undefined
  /** While an async `proxyRes` hook runs, or the body is collected: the chunks that arrived, their size, whether the body ended. */
  protected held: Buffer[] | undefined
  protected heldBytes = 0
  protected heldComplete = false

  constructor(options: RelayOptions) {
    this.context = options.context
    this.req = options.req
    this.res = options.res
    this.route = options.route
    this.options = options.dispatch
    this.rewriteLocation = options.rewriteLocation
    this.label = options.label
    this.path = options.path
    this.body = options.body
  }

  /** The head is final (after the `proxyRes` hooks): relay it, or keep it; `false` pauses undici. */
  protected abstract answer(statusCode: number, headers: IncomingHttpHeaders): boolean

  /** The head as undici gave it, on a route without `proxyRes` hooks: as {@link answer} unless a subclass writes the raw list itself. */
  protected answerRaw(statusCode: number, rawHeaders: readonly RawField[]): boolean {
    return this.answer(statusCode, headersFromRaw(rawHeaders))
  }
  /** The body that arrived while an async hook ran, then undici resumed. */
  protected abstract releaseHeld(): void
  /** The body failed after the head arrived. */
  protected abstract bodyFailed(state: number, error: Error): void

  /** Sends the request on `dispatcher` and arms the route's `timeout`, when it has one. */
  start(dispatcher: Dispatcher): void {
    const { timeout } = this.route
    // The target's time to answer counts once the request is sent, a streamed upload included.
    // Without a `timeout` nothing is armed: the answer may take as long as the target needs.
    if (timeout !== undefined) {
      whenBodySent(this.options.body, () => {
        if (this.state === WAITING && this.gone === undefined) {
          this.#timer = setTimeout(fireDeadline, timeout, this)
        }
      })
    }
    // Whatever closed the response (the client leaving, or a step that answered in the relay's
    // place, as JSONP does past its size limit), the rest of the answer has nowhere to go.
    // `on`, not `once`: a response closes once, and `once` wraps the listener anew per request.
    this.res.on('close', () => {
      if (this.state !== DONE) this.#leave(new ClientGoneError('the client went away'))
    })
    this.#send(dispatcher)
  }

  /** Hands the request to `dispatcher`: the first time, and again for a retry. */
  #send(dispatcher: Dispatcher): void {
    this.#dispatcher = dispatcher
    this.#generation = generationOf(dispatcher)
    dispatcher.dispatch(this.options, this)
  }

  /** The route's `timeout` ran out before the head: the request is aborted, answered 504. */
  expire(): void {
    const { timeout } = this.route
    if (this.state === WAITING && timeout !== undefined) this.#leave(new ResponseTimeoutError(timeout))
  }

  #leave(reason: Error): void {
    if (this.gone !== undefined || this.state === DONE) return
    this.gone = reason
    if (this.#abort !== undefined) {
      this.#reset(reason)
      return
    }
    // Not connected yet (undici hands over its abort once the connection is up, and aborts
    // then, see `onConnect`): a deadline is answered now rather than when connecting ends.
    if (reason instanceof ResponseTimeoutError) {
      this.state = DONE
      answerFailure(this.context, this.req, this.res, reason, this.route.target)
    }
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.gone !== undefined) abort(this.gone)
    else this.#abort = abort
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx interim answers are undici's and Node's business; only the final head is relayed.
    if (statusCode < 200) return true
    clearTimeout(this.#timer)
    const { req, res } = this
    this.state = RELAYING
    this.resume = resume
    const hooks = this.route.hooks.proxyRes
    // Without hooks nothing needs the head as an object: the subclass may write it from the raw list.
    const upstreamHeaders = hooks.length === 0 ? undefined : headersFromRaw(rawHeaders)
    this.#noteAnswer(statusCode, upstreamHeaders ?? rawHeaders)
    if (isResponseClosed(res)) {
      this.finish()
      return false
    }
    if (upstreamHeaders === undefined) return this.answerRaw(statusCode, rawHeaders)
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
    this.state = HOOKING
    this.held = []
    pending.then(
      () => {
        if (this.state !== HOOKING) return
        this.state = RELAYING
        if (!this.#afterHooks(proxyRes.statusCode, proxyRes.headers)) return
        this.releaseHeld()
      },
      (error: unknown) => {
        if (this.state === HOOKING) this.#hookFailed(error)
      },
    )
    return false
  }

  /** The head arrived and is about to be relayed: the failure log, the hints, the debug line. */
  #noteAnswer(statusCode: number, headers: IncomingHttpHeaders | readonly RawField[]): void {
    const { context, req, label } = this
    context.heads?.set(req, performance.now())
    context.failures.answered(label)
    context.hints.answered(req, { statusCode, headers }, this.path, this.options.path)
    // Opted-in routes show the upstream hop's protocol: what ALPN gave, not what was offered.
    if (context.hops !== undefined && this.route.http2) {
      const protocol = context.pool.protocolFor(this.route) === 'h2' ? 'h2' : 'h1.1'
      context.hops.set(req, `${label}${this.options.path} over ${protocol}`)
    }
  }

  /** After the `proxyRes` hooks: the head, unless a hook answered the client itself. */
  #afterHooks(statusCode: number, headers: IncomingHttpHeaders): boolean {
    const { res } = this
    if (res.headersSent || res.writableEnded || isResponseClosed(res)) {
      this.finish()
      return false
    }
    return this.answer(statusCode, headers)
  }

  /** A `proxyRes` hook threw: nothing went to the client, which gets the forwarder's 502 naming it. */
  #hookFailed(error: unknown): void {
    this.finish()
    // runHooksSyncFirst throws and rejects with a HookFailure only.
    answerFailure(this.context, this.req, this.res, error as HookFailure, this.route.target)
  }

  onError(error: Error): void {
    const state = this.state
    this.state = DONE
    if (state === WAITING) this.#failedBeforeHead(error)
    else if (state !== DONE) this.bodyFailed(state, error)
  }

  /** The request failed before the head: left, timed out, sent again, or answered 502/504. */
  #failedBeforeHead(error: Error): void {
    clearTimeout(this.#timer)
    const { context, req, res } = this
    const gone = this.gone
    if (gone instanceof ClientGoneError || (gone === undefined && isResponseClosed(res))) {
      context.logger.debug(`${req.method} ${req.url}: the client went away before ${this.label} answered`)
      return
    }
    if (gone === undefined && !this.#retried && this.#retry(error)) {
      this.state = WAITING
      this.#abort = undefined
      // The second attempt has the route's whole `timeout` too (its body is in memory).
      const { timeout } = this.route
      if (timeout !== undefined) this.#timer = setTimeout(fireDeadline, timeout, this)
      return
    }
    answerFailure(context, req, res, gone ?? error, this.route.target)
  }

  /** Sends the request once more after `error`, when it may be (the keep-alive race, see `mayRetry`). */
  #retry(error: Error): boolean {
    const { context, req } = this
    if (!mayRetry(req.method ?? 'GET', this.body, error)) return false
    this.#retried = true
    if (refusedStream(error)) {
      // The target's HTTP/2 connections are spent: new ones for this request and the next.
      context.logger.debug(
        `${req.method} ${req.url}: ${this.label} refused the stream (${error.message}); sent again on a new connection`,
      )
      const dispatcher = context.pool.poolFor(this.route)
      streamRefused(dispatcher, this.#generation)
      this.#send(dispatcher)
      return true
    }
    context.logger.debug(
      `${req.method} ${req.url}: ${this.label} closed a kept-alive connection under the request (${errorCode(error)}); sent again on a fresh one`,
    )
    context.pool.dispatchFresh(this.route, this.options, this)
    return true
  }

  /** Stops reading the upstream's answer: it will not be relayed (the client left, or a 502 went out instead). */
  protected finish(): void {
    this.state = DONE
    if (this.#abort !== undefined && !this.heldComplete) {
      this.#reset(new ClientGoneError('the answer is not relayed'))
    }
  }

  /** Aborts the request in flight: undici resets its stream, or drops its connection. */
  #reset(reason: Error): void {
    ;(this.#abort as (error?: Error) => void)(reason)
    if (this.#dispatcher !== undefined) streamReset(this.#dispatcher, this.#generation)
  }
}
