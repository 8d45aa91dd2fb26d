import { Client, type Dispatcher, Pool } from 'undici'
import { RenewableDispatcher } from './renewable-dispatcher.js'
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
  // Both pools are replaced together when the connections are renewed (see RenewableDispatcher).
  const open = (): TwoPools => new TwoPools(openShared(), new Pool(origin, options))
  return new MultiplexedPool(open, negotiated)
}

/**
 * The multiplexing pool and the pool of separate connections, closed and destroyed as one (the
 * multiplexed pool picks one of the two per request; `dispatch` here is only the shared one).
 */
class TwoPools extends WrappingDispatcher {
  constructor(
    readonly shared: Dispatcher,
    readonly separate: Dispatcher,
  ) {
    super()
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.shared.dispatch(options, handler)
  }

  protected closeOwned(): Promise<void> {
    return Promise.all([this.shared.close(), this.separate.close()]).then(() => undefined)
  }

  protected destroyOwned(error: Error | null): Promise<void> {
    return Promise.all([this.shared.destroy(error), this.separate.destroy(error)]).then(() => undefined)
  }
}

/**
 * The two pools behind one dispatcher: `shared` multiplexes, `separate` gives each request a
 * connection of its own (uploads, and everything once the target is known to answer HTTP/1.1);
 * see {@link createMultiplexedPool}.
 */
class MultiplexedPool extends RenewableDispatcher<TwoPools> {
  constructor(
    open: () => TwoPools,
    private readonly negotiated: () => string | undefined,
  ) {
    super(open)
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const { shared, separate } = this.current
    if (isStreamedBody(options.body) || this.negotiated() === 'http/1.1') {
      return separate.dispatch(options, handler)
    }
    return shared.dispatch({ ...options, idempotent: true }, handler)
  }
}
