import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Exchange } from '../pipeline/exchange.js'
import type { ForwardContext } from './forward-context.js'
import type { LocationRewriter } from './location-rewrite.js'
import type { RawField } from './raw-headers.js'
import type { RequestBody } from './request-body.js'

/**
 * The progress of one forwarded request's relay (see `Relay`), one value at a time:
 * - `Waiting`: the request is sent, no head came yet;
 * - `Hooking`: the head arrived and an async `proxyRes` hook runs: the body waits, held back;
 * - `Relaying`: the head went to the client; the body is relayed as it comes;
 * - `Collecting`: the body is read into memory for `transformResponse`: nothing goes to the
 *   client before its end;
 * - `Done`: answered, broken off, or abandoned (the client left, a 502 went out instead).
 *
 * Small integers, so the checks on each chunk compare numbers.
 *
 * @example
 * if (relay.state === RelayState.Relaying) res.write(chunk)
 */
export const RelayState = Object.freeze({
  Waiting: 0,
  Relaying: 1,
  Done: 2,
  Hooking: 3,
  Collecting: 4,
} as const)

/** One of {@link RelayState}'s values. */
export type RelayState = (typeof RelayState)[keyof typeof RelayState]

/** The reason an upstream request is aborted when the client leaves: only ever logged at debug. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError'
}

/**
 * Where a relay's answer goes once its head is final (after the `proxyRes` hooks): a plain
 * object of functions, one per route ({@link streamSink}, or `collectSink` for
 * `transformResponse`), each given the relay whose fields hold the request's state. The relay
 * calls `data` and `end` while it is `Relaying` or `Collecting`.
 */
export interface RelaySink {
  /** The head as an object: written, or kept; `false` pauses undici (or drops the answer, see `Relay.finish`). */
  readonly head: (relay: RelayExchange, statusCode: number, headers: IncomingHttpHeaders) => boolean
  /** The head as undici gave it, on a route without `proxyRes` hooks. */
  readonly rawHead: (relay: RelayExchange, statusCode: number, rawHeaders: readonly RawField[]) => boolean
  /** The body that arrived while an async `proxyRes` hook ran, once its head went to {@link RelaySink.head}. */
  readonly release: (relay: RelayExchange) => void
  /** One chunk of the body; `false` pauses undici until the relay's `resume`. */
  readonly data: (relay: RelayExchange, chunk: Buffer) => boolean
  /** The body ended. */
  readonly end: (relay: RelayExchange) => void
}

/** What one forwarded request's relay is made of (see {@link Relay}). */
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
  /** What is learnt about the request for the debug line and the inspector (pipeline/exchange.ts); `undefined` when neither reads it. */
  readonly exchange: Exchange | undefined
  /** Where the answer goes once its head is final: streamed, or collected (the route's, see `sinkFor`). */
  readonly sink: RelaySink
}

/**
 * One forwarded request as its relay holds it (the `Relay` class is the one implementation):
 * what the request is made of, and the answer's progress, which the sinks and the relay's steps
 * (relay-head.ts, relay-failures.ts) read and write. One object per request: nothing about the
 * request is kept beside it.
 */
export interface RelayExchange extends Omit<RelayOptions, 'dispatch' | 'sink'> {
  /** What undici sends (the relay's `dispatch` option). */
  readonly options: Dispatcher.DispatchOptions
  /** The route's sink; a collecting sink hands an answer it does not transform to the streaming one. */
  sink: RelaySink
  state: RelayState
  /** undici's resume, once the head came. */
  resume: (() => void) | undefined
  /** Why the relay gave up on the upstream itself: the client left, or the deadline passed. */
  gone: Error | undefined
  /** While an async `proxyRes` hook runs, or the body is collected: the chunks that arrived, their size, whether the body ended. */
  held: Buffer[] | undefined
  heldBytes: number
  heldComplete: boolean
  /** The head a collected body belongs to (after the `proxyRes` hooks); unused while streaming. */
  headStatus: number
  headHeaders: IncomingHttpHeaders | undefined
  /** Stops reading the upstream's answer: it will not be relayed (the client left, or a 502 went out instead). */
  finish(): void
  /** undici's end of the body, as the relay takes it (also called for a body that ended while held). */
  onComplete(): void
}
