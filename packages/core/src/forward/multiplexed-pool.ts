import { Client, type Dispatcher, Pool } from 'undici'
import { WrappingDispatcher } from './wrapping-dispatcher.js'

/**
 * Streams one HTTP/2 connection carries at once: undici's own cap for a target's
 * `SETTINGS_MAX_CONCURRENT_STREAMS`, and Node's HTTP/2 server's default.
 */
const STREAMS_PER_CONNECTION = 100

/**
 * Most HTTP/2 connections per target. A client that is still connecting counts as busy for
 * undici's pool, which then opens another: the cap keeps a burst at the start to a few
 * handshakes, and 4 × 100 streams leave room for many long event streams.
 */
const CONNECTIONS = 4

/**
 * Streams the proxy may reset on the shared connections (a client that left, a deadline) before
 * they are replaced. undici resets a stream with `NO_ERROR`, and Node's HTTP/2 server then keeps
 * its side open until the handler has written its whole answer, which it cannot once the window
 * is spent: the answer stays buffered in that session (an event stream's handler writes for
 * ever), and past its `maxSessionMemory` (10 MB) the server refuses every new stream with
 * `ENHANCE_YOUR_CALM`, then closes the session. Measured: 13 reset 1 MiB downloads on one
 * session, and every later request was refused. Closing the connection frees all of it.
 */
const RESETS_BEFORE_NEW_CONNECTIONS = 4

/** A body undici sends as it reads it (a stream or an async iterable): not replayable, not shared. */
function isStreamedBody(body: unknown): boolean {
  if (body == null || typeof body === 'string' || body instanceof Uint8Array) return false
  const value = body as { pipe?: unknown; [Symbol.asyncIterator]?: unknown }
  return typeof value.pipe === 'function' || typeof value[Symbol.asyncIterator] === 'function'
}

/**
 * The dispatcher of a route with `http2: true`: one HTTP/2 connection per target carries the
 * requests in flight as streams, instead of a connection each.
 *
 * Why not undici's `Pool` with `allowH2` alone: a client takes one request at a time unless told
 * otherwise (`pipelining` 1), so 50 requests in flight open 50 TLS connections, each with one
 * stream, and while a new client is still connecting it counts as busy, so a burst opens a burst
 * of handshakes. Here the pool's clients take up to 100 requests each (`pipelining` 100): the
 * first client queues the burst while it connects and then multiplexes it.
 *
 * Two kinds of requests go through a second pool instead, a connection each, unbounded:
 * - a request whose body is a stream (an upload the proxy relays as it arrives): undici's HTTP/2
 *   client holds such a request until every other stream of the connection is done, and every
 *   request queued behind it;
 * - every request, once the target answered ALPN with `http/1.1` after all (HTTP/1.1 pipelining
 *   would queue an answer behind a slow one, an event stream for instance, and the cap on
 *   connections would hold requests back). A client that connected without HTTP/2 before that
 *   was known goes back to one request at a time.
 *
 * Other requests are marked idempotent for undici, whose HTTP/2 client otherwise sends a POST
 * only once the connection is idle. undici never sends a request twice by itself; the proxy's
 * own retry rule (`retry-policy.ts`) is unchanged.
 *
 * @example
 * const pool = createMultiplexedPool(origin, { connect, allowH2: true }, () => upstream.protocol)
 * await pool.request({ path: '/users', method: 'GET' })
 */
export function createMultiplexedPool(
  origin: string,
  options: Pool.Options,
  negotiated: () => string | undefined,
): Dispatcher {
  const openShared = (): Dispatcher =>
    new Pool(origin, {
      ...options,
      connections: Math.min(options.connections ?? CONNECTIONS, CONNECTIONS),
      factory(clientOrigin, clientOptions) {
        const h1 = negotiated() === 'http/1.1'
        const client = new Client(clientOrigin, {
          ...clientOptions,
          pipelining: h1 ? 1 : STREAMS_PER_CONNECTION,
        })
        // The connector reports each connection's ALPN answer before undici's 'connect' event.
        client.on('connect', () => {
          if (negotiated() !== 'h2' && client.pipelining !== 1) client.pipelining = 1
        })
        return client
      },
    })
  const separate = new Pool(origin, options)
  return new MultiplexedPool(openShared, separate, negotiated)
}

/**
 * Tells the dispatcher that the proxy reset one of its requests in flight (see
 * {@link RESETS_BEFORE_NEW_CONNECTIONS}); a no-op for any dispatcher but a multiplexed pool.
 *
 * @example
 * streamReset(pool.poolFor(route))
 */
export function streamReset(dispatcher: Dispatcher): void {
  if (dispatcher instanceof MultiplexedPool) dispatcher.reset()
}

/**
 * Tells the dispatcher that the target refused a stream (`REFUSED_STREAM`, `ENHANCE_YOUR_CALM`):
 * a multiplexed pool moves its next requests to new connections at once.
 *
 * @example
 * streamRefused(pool.poolFor(route))
 */
export function streamRefused(dispatcher: Dispatcher): void {
  if (dispatcher instanceof MultiplexedPool) dispatcher.renew()
}

/**
 * The two pools behind one dispatcher: `shared` multiplexes, `separate` gives each request a
 * connection of its own (uploads, and everything once the target is known to answer HTTP/1.1);
 * see {@link createMultiplexedPool}.
 */
class MultiplexedPool extends WrappingDispatcher {
  #shared: Dispatcher
  /** Replaced shared pools, closing once their requests are done. */
  readonly #retired = new Set<Dispatcher>()
  #resets = 0

  constructor(
    private readonly openShared: () => Dispatcher,
    private readonly separate: Dispatcher,
    private readonly negotiated: () => string | undefined,
  ) {
    super()
    this.#shared = openShared()
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (isStreamedBody(options.body) || this.negotiated() === 'http/1.1') {
      return this.separate.dispatch(options, handler)
    }
    return this.#shared.dispatch({ ...options, idempotent: true }, handler)
  }

  /** One more stream reset by the proxy: new connections once there were a few. */
  reset(): void {
    this.#resets += 1
    if (this.#resets >= RESETS_BEFORE_NEW_CONNECTIONS) this.renew()
  }

  /**
   * New requests go to new connections; the old ones close once their requests are done, which
   * frees whatever the target kept for the streams the proxy reset.
   */
  renew(): void {
    const old = this.#shared
    this.#shared = this.openShared()
    this.#resets = 0
    this.#retired.add(old)
    old
      .close()
      .catch(() => undefined)
      .finally(() => this.#retired.delete(old))
  }

  protected closeOwned(): Promise<void> {
    const owned = [this.#shared, this.separate, ...this.#retired]
    return Promise.all(owned.map((dispatcher) => dispatcher.close().catch(() => undefined))).then(
      () => undefined,
    )
  }

  protected destroyOwned(error: Error | null): Promise<void> {
    const owned = [this.#shared, this.separate, ...this.#retired]
    return Promise.all(owned.map((dispatcher) => dispatcher.destroy(error))).then(() => undefined)
  }
}
