import type { Dispatcher } from 'undici'
import { WrappingDispatcher } from './wrapping-dispatcher.js'

/**
 * Streams the proxy may reset on a dispatcher's HTTP/2 connections (a client that left, a
 * deadline) before they are replaced. undici resets a stream with `NO_ERROR`, and Node's HTTP/2
 * server then keeps its side open until the handler has written its whole answer, which it
 * cannot once the window is spent: the answer stays buffered in that session (an event stream's
 * handler writes for ever), and past its `maxSessionMemory` (10 MB) the server refuses every new
 * stream with `ENHANCE_YOUR_CALM`, then closes the session. Measured: 13 reset 1 MiB downloads
 * on one session, and every later request was refused. Closing the connection frees all of it.
 */
export const RESETS_BEFORE_NEW_CONNECTIONS = 4

/**
 * A dispatcher over HTTP/2 connections that can move to new ones: its undici dispatchers are
 * opened by `open`, replaced by {@link renew} (the old ones close once their requests are done),
 * after {@link RESETS_BEFORE_NEW_CONNECTIONS} resets or at once when the target refuses a stream.
 * Subclasses dispatch through {@link current}.
 *
 * @example
 * class Pools extends RenewableDispatcher<Pool> {
 *   override dispatch(options, handler) { return this.current.dispatch(options, handler) }
 * }
 * const pools = new Pools(() => new Pool(origin, { allowH2: true }))
 */
export abstract class RenewableDispatcher<T extends Dispatcher> extends WrappingDispatcher {
  /** What requests go to now. */
  protected current: T
  /** Replaced dispatchers, closing once their requests are done. */
  readonly #retired = new Set<Dispatcher>()
  #resets = 0
  /**
   * Which connections requests go to now, counted up by {@link renew}. A request remembers the
   * generation it went to, so that what happens to it concerns only those connections: a burst
   * of refusals from spent connections renews them once, not once per refused request.
   */
  generation = 0

  constructor(private readonly open: () => T) {
    super()
    this.current = open()
  }

  /**
   * The proxy reset a request in flight that went to connections of `generation`: new
   * connections once there were a few on the current ones.
   */
  noteReset(generation: number): void {
    if (generation !== this.generation) return
    this.#resets += 1
    if (this.#resets >= RESETS_BEFORE_NEW_CONNECTIONS) this.renew(generation)
  }

  /**
   * New requests go to new connections, unless they already do since the request of
   * `generation` went out; the old ones close once their requests are done, which frees
   * whatever the target kept for the streams the proxy reset.
   */
  renew(generation: number): void {
    if (generation !== this.generation) return
    const old = this.current
    this.current = this.open()
    this.generation += 1
    this.#resets = 0
    this.#retired.add(old)
    old
      .close()
      .catch(() => undefined)
      .finally(() => this.#retired.delete(old))
  }

  protected closeOwned(): Promise<void> {
    const owned = [this.current, ...this.#retired]
    return Promise.all(owned.map((dispatcher) => dispatcher.close().catch(() => undefined))).then(
      () => undefined,
    )
  }

  protected destroyOwned(error: Error | null): Promise<void> {
    const owned = [this.current, ...this.#retired]
    return Promise.all(owned.map((dispatcher) => dispatcher.destroy(error))).then(() => undefined)
  }
}

/**
 * The generation of connections a request sent on `dispatcher` now goes to (see
 * `RenewableDispatcher.generation`); 0 for any other dispatcher.
 *
 * @example
 * const generation = generationOf(dispatcher)
 * dispatcher.dispatch(options, handler)
 */
export function generationOf(dispatcher: Dispatcher): number {
  return dispatcher instanceof RenewableDispatcher ? dispatcher.generation : 0
}

/**
 * Tells the dispatcher that the proxy reset one of its requests in flight, sent to connections
 * of `generation` (see {@link RESETS_BEFORE_NEW_CONNECTIONS}); a no-op for a dispatcher without
 * HTTP/2 connections.
 *
 * @example
 * streamReset(pool.poolFor(route), generation)
 */
export function streamReset(dispatcher: Dispatcher, generation: number): void {
  if (dispatcher instanceof RenewableDispatcher) dispatcher.noteReset(generation)
}

/**
 * Tells the dispatcher that the target refused a stream (`REFUSED_STREAM`, `ENHANCE_YOUR_CALM`)
 * of a request sent to connections of `generation`: it moves its next requests to new
 * connections at once, unless it already did.
 *
 * @example
 * streamRefused(pool.poolFor(route), generation)
 */
export function streamRefused(dispatcher: Dispatcher, generation: number): void {
  if (dispatcher instanceof RenewableDispatcher) dispatcher.renew(generation)
}
