import { Pool } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'

/**
 * Options of {@link createUpstreamPool}.
 *
 * @example
 * createUpstreamPool({ connections: 64, keepAliveTimeout: 10_000 })
 */
export interface UpstreamPoolOptions {
  /**
   * Most connections kept per target origin; `null` opens as many as there are requests in flight,
   * like a browser's dev server traffic needs (no queueing behind a slow event stream).
   * @default null
   */
  connections?: number | null
  /**
   * Milliseconds an idle upstream connection stays open when the target gives no `Keep-Alive`
   * hint (undici honours a shorter hint from the target).
   * @default 4000
   */
  keepAliveTimeout?: number
}

/** The keep-alive connections to the targets, one undici `Pool` per target origin and TLS setting. */
export interface UpstreamPool {
  /** The pool for a route's target, created on first use and reused afterwards. */
  poolFor(route: ResolvedForwardRoute): Pool
  /** Number of pools opened so far (one per distinct target origin and `secure` setting). */
  readonly size: number
  /** Closes every pool: idle connections at once, requests in flight are aborted. */
  close(): Promise<void>
}

/**
 * The origin undici connects to. A `ws:`/`wss:` target serves plain HTTP requests of its route
 * over `http:`/`https:` (the WebSocket handshake itself is an HTTP/1.1 request, RFC 6455 section 4.1).
 */
export function httpOrigin(target: URL): string {
  if (target.protocol === 'ws:') return `http://${target.host}`
  if (target.protocol === 'wss:') return `https://${target.host}`
  return target.origin
}

/**
 * Creates the upstream connection pools. Connections are kept alive and reused: a proxy that
 * opens one connection per request (as Vite's does) reaches about a third of the throughput;
 * the README's benchmark section has the numbers.
 * A pool is per origin *and* `secure` setting, so a route with `secure: false` never lends its
 * unverified TLS connections to a route that asked for verification.
 *
 * Timeouts: `bodyTimeout` is 0, so an event stream or a long poll may stay idle for as long as
 * the target likes; the route's `timeout` bounds the wait for response headers, per request.
 *
 * @example
 * const pools = createUpstreamPool()
 * await pools.poolFor(route).request({ path: '/users', method: 'GET' })
 * await pools.close()
 */
export function createUpstreamPool(options: UpstreamPoolOptions = {}): UpstreamPool {
  const connections = options.connections ?? null
  const keepAliveTimeout = options.keepAliveTimeout ?? 4_000
  const byKey = new Map<string, Pool>()
  // The route objects are resolved once and live as long as the proxy: a direct lookup per request.
  let byRoute = new WeakMap<ResolvedForwardRoute, Pool>()

  function open(route: ResolvedForwardRoute): Pool {
    const origin = httpOrigin(route.target)
    const key = `${origin} ${route.secure ? 'verified' : 'unverified'}`
    let pool = byKey.get(key)
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections,
        keepAliveTimeout,
        bodyTimeout: 0,
        headersTimeout: route.timeout,
        // `secure: false` accepts a self-signed target, as http-proxy's `secure` does.
        connect: route.secure ? undefined : { rejectUnauthorized: false },
      })
      byKey.set(key, pool)
    }
    byRoute.set(route, pool)
    return pool
  }

  return {
    poolFor(route) {
      return byRoute.get(route) ?? open(route)
    },
    get size() {
      return byKey.size
    },
    async close() {
      const pools = [...byKey.values()]
      byKey.clear()
      byRoute = new WeakMap()
      await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)))
    },
  }
}
