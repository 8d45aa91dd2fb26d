import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Exchange } from '../pipeline/exchange.js'
import type { ForwardContext } from './forward-context.js'
import { answerFailure } from './forward-failures.js'
import type { LocationRewriter } from './location-rewrite.js'
import { errorCode } from './proxy-error.js'
import { headersFromRaw } from './raw-headers.js'
import { relayBodyFailed } from './relay-failures.js'
import { noteAnswer, runProxyRes } from './relay-head.js'
import {
  ClientGoneError,
  type RelayExchange,
  type RelayOptions,
  type RelaySink,
  RelayState,
} from './relay-state.js'
import { generationOf, streamRefused, streamReset } from './renewable-dispatcher.js'
import type { RequestBody } from './request-body.js'
import { ResponseTimeoutError, whenBodySent } from './response-deadline.js'
import { isResponseClosed } from './response-state.js'
import { mayRetry, refusedStream } from './retry-policy.js'

function fireDeadline(relay: Relay): void {
  relay.expire()
}

/**
 * One forwarded request, as an undici `dispatch()` handler, and everything that request's
 * answer needs to know: it sends the request, waits for the answer's head, and hands the head
 * and the body to its sink, which streams them into the response (`streamSink`) or collects
 * the body for `transformResponse` (`collectSink`). Until the head:
 * - the route's `timeout`, when it has one (its own timer; undici ticks its timers coarsely),
 *   aborts the request when no head came in time once the request was sent, answered 504;
 * - the client leaving aborts the upstream request (and drops that connection);
 * - an idempotent request whose kept-alive connection the target closed under it is sent once
 *   more (`mayRetry`); any other failure is answered 502/504 (`forward-failures.ts`);
 * - the `proxyRes` hooks see the head first (an async one holds the body back).
 *
 * One object per request and no promise or stream beside it: the sinks are plain functions
 * that read and write the relay's fields, chosen once per route.
 *
 * @example
 * new Relay({ context, req, res, route, dispatch, rewriteLocation, label, path, body, exchange, sink: streamSink }).start(pool.poolFor(route))
 */
export class Relay implements Dispatcher.DispatchHandler, RelayExchange {
  readonly context: ForwardContext
  readonly req: ProxyRequest
  readonly res: ProxyResponse
  readonly route: ResolvedForwardRoute
  readonly options: Dispatcher.DispatchOptions
  readonly rewriteLocation: LocationRewriter | undefined
  readonly label: string
  readonly path: string
  readonly body: RequestBody
  readonly exchange: Exchange | undefined
  /** The route's sink; a collecting sink hands an answer it does not transform to the streaming one. */
  sink: RelaySink
  state: RelayState = RelayState.Waiting
  /** undici's resume, once the head came. */
  resume: (() => void) | undefined
  /** Why the relay gave up on the upstream itself: the client left, or the deadline passed. */
  gone: Error | undefined
  /** While an async `proxyRes` hook runs, or the body is collected: the chunks that arrived, their size, whether the body ended. */
  held: Buffer[] | undefined
  heldBytes = 0
  heldComplete = false
  /** The head a collected body belongs to (after the `proxyRes` hooks); unused while streaming. */
  headStatus = 0
  headHeaders: IncomingHttpHeaders | undefined
  /** undici's abort of the current attempt; `undefined` before it connects. */
  #abort: ((error?: Error) => void) | undefined
  /** Where the request went, told when the relay resets it (see `streamReset`). */
  #dispatcher: Dispatcher | undefined
  /** The generation of that dispatcher's connections the request went to (see `generationOf`). */
  #generation = 0
  #timer: NodeJS.Timeout | undefined
  /** Whether this request was already sent a second time (see {@link Relay.retry}). */
  #retried = false

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
    this.exchange = options.exchange
    this.sink = options.sink
  }

  /** Sends the request on `dispatcher` and arms the route's `timeout`, when it has one. */
  start(dispatcher: Dispatcher): void {
    const { timeout } = this.route
    // The target's time to answer counts once the request is sent, a streamed upload included.
    // Without a `timeout` nothing is armed: the answer may take as long as the target needs.
    if (timeout !== undefined) {
      whenBodySent(this.options.body, () => {
        if (this.state === RelayState.Waiting && this.gone === undefined) {
          this.#timer = setTimeout(fireDeadline, timeout, this)
        }
      })
    }
    // Whatever closed the response (the client leaving, or a step that answered in the relay's
    // place, as JSONP does past its size limit), the rest of the answer has nowhere to go.
    // `on`, not `once`: a response closes once, and `once` wraps the listener anew per request.
    this.res.on('close', () => {
      if (this.state !== RelayState.Done) this.#leave(new ClientGoneError('the client went away'))
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
    if (this.state === RelayState.Waiting && timeout !== undefined)
      this.#leave(new ResponseTimeoutError(timeout))
  }

  #leave(reason: Error): void {
    if (this.gone !== undefined || this.state === RelayState.Done) return
    this.gone = reason
    if (this.#abort !== undefined) {
      this.#reset(reason)
      return
    }
    // Not connected yet (undici hands over its abort once the connection is up, and aborts
    // then, see `onConnect`): a deadline is answered now rather than when connecting ends.
    if (reason instanceof ResponseTimeoutError) {
      this.state = RelayState.Done
      answerFailure(this, reason)
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
    this.state = RelayState.Relaying
    this.resume = resume
    const hooks = this.route.hooks.proxyRes
    // Without hooks nothing needs the head as an object: the sink may write it from the raw list.
    const upstreamHeaders = hooks.length === 0 ? undefined : headersFromRaw(rawHeaders)
    noteAnswer(this, statusCode, upstreamHeaders ?? rawHeaders)
    if (isResponseClosed(this.res)) {
      this.finish()
      return false
    }
    if (upstreamHeaders === undefined) return this.sink.rawHead(this, statusCode, rawHeaders)
    return runProxyRes(this, statusCode, upstreamHeaders)
  }

  onData(chunk: Buffer): boolean {
    const state = this.state
    if (state === RelayState.Relaying || state === RelayState.Collecting) return this.sink.data(this, chunk)
    if (state === RelayState.Hooking) {
      this.heldBytes += chunk.byteLength
      this.held?.push(chunk)
      return false
    }
    return true
  }

  onComplete(): void {
    const state = this.state
    if (state === RelayState.Relaying || state === RelayState.Collecting) this.sink.end(this)
    else if (state === RelayState.Hooking) this.heldComplete = true
  }

  onError(error: Error): void {
    const state = this.state
    this.state = RelayState.Done
    if (state === RelayState.Waiting) this.#failedBeforeHead(error)
    else if (state !== RelayState.Done) relayBodyFailed(this, state, error)
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
      this.state = RelayState.Waiting
      this.#abort = undefined
      // The second attempt has the route's whole `timeout` too (its body is in memory).
      const { timeout } = this.route
      if (timeout !== undefined) this.#timer = setTimeout(fireDeadline, timeout, this)
      return
    }
    answerFailure(this, gone ?? error)
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
  finish(): void {
    this.state = RelayState.Done
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
