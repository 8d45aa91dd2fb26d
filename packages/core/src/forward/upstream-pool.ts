import { Client, type Dispatcher, Pool } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { httpOrigin } from '../http/http-origin.js'
import { createKeepAliveLearner, type KeepAliveLearner } from './keep-alive-learning.js'
import { createMultiplexedPool } from './multiplexed-pool.js'
import { createRedirectDispatcher } from './redirect-dispatcher.js'
import { createUpstreamConnector } from './upstream-connector.js'

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
   * hint (undici honours a shorter hint from the target); lowered per target when it is seen
   * closing idle connections sooner.
   * @default 4000
   */
  keepAliveTimeout?: number
  /**
   * A dispatcher per target origin in place of undici's pools: the Fetch front end's, on a
   * runtime whose undici cannot `dispatch()` (see `createFetchHandler`).
   * @default undefined
   */
  dispatcherFor?: ((origin: string) => Dispatcher) | undefined
}

/** The keep-alive connections to the targets, one undici `Pool` per target origin and TLS setting. */
export interface UpstreamPool {
  /**
   * The pool for a route's target, created on first use and reused afterwards; for a route with
   * `followRedirects`, a dispatcher that follows them (see `createRedirectDispatcher`).
   */
  poolFor(route: ResolvedForwardRoute): Dispatcher
  /**
   * Sends one request with `handler` on a connection of its own, closed once the answer has been
   * read: for the retry after a kept-alive connection was closed under a request, which must not
   * meet another connection the target is closing.
   */
  dispatchFresh(
    route: ResolvedForwardRoute,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): void
  /**
   * The protocol the last new connection to the route's target negotiated (`h2` or `http/1.1`),
   * for a route with `http2` and an `https:` target; `undefined` before any or without TLS.
   */
  protocolFor(route: ResolvedForwardRoute): string | undefined
  /** Milliseconds idle connections to the route's target are kept: the default, or less once learned. */
  keepAliveTimeoutFor(route: ResolvedForwardRoute): number
  /** Number of pools opened so far (one per distinct target origin, `secure` setting and HTTP/2 offer). */
  readonly size: number
  /** Closes every pool: idle connections at once, requests in flight are aborted. */
  close(): Promise<void>
}

/** One target origin and TLS setting: its current pool, its connector and what was learned of it. */
interface Upstream {
  readonly origin: string
  readonly connect: ReturnType<typeof createUpstreamConnector>
  readonly learner: KeepAliveLearner
  readonly allowH2: boolean
  /** Redirects followed on the server side (`followRedirects`); 0: relayed to the browser. */
  readonly redirects: number
  /** The route's `agent`, mapped: its connection limit and keep-alive. */
  readonly agent: ResolvedForwardRoute['agent']
  protocol: string | undefined
  pool: Dispatcher
}

/** What the pools of one `createUpstreamPool` keep between requests. */
interface PoolState {
  readonly connections: number | null
  readonly keepAliveTimeout: number
  readonly dispatcherFor: ((origin: string) => Dispatcher) | undefined
  readonly byKey: Map<string, Upstream>
  /** The route objects are resolved once and live as long as the proxy: a direct lookup per request. */
  byRoute: WeakMap<ResolvedForwardRoute, Upstream>
  /** Replaced pools finishing their requests, and the one-connection clients of retries. */
  readonly draining: Set<Dispatcher>
  /** Routes sharing one agent share its pool, as they would share the agent's sockets. */
  readonly agentIds: WeakMap<object, number>
  agents: number
  closed: boolean
}

function agentId(state: PoolState, agent: object): number {
  let id = state.agentIds.get(agent)
  if (id === undefined) {
    state.agents += 1
    id = state.agents
    state.agentIds.set(agent, id)
  }
  return id
}

function newPool(state: PoolState, upstream: Omit<Upstream, 'pool'>): Dispatcher {
  if (state.dispatcherFor !== undefined) return state.dispatcherFor(upstream.origin)
  const { agent } = upstream
  const options = {
    connections: agent === undefined ? state.connections : agent.connections,
    // An agent without keepAlive: a connection per request (undici closes it after the answer).
    ...(agent !== undefined && !agent.keepAlive ? { pipelining: 0 } : {}),
    keepAliveTimeout: upstream.learner.timeout,
    bodyTimeout: 0,
    headersTimeout: 0,
    connect: upstream.connect,
    ...(upstream.allowH2 ? { allowH2: true } : {}),
  }
  if (upstream.redirects > 0) return createRedirectDispatcher(upstream.origin, upstream.redirects, options)
  // HTTP/2 offered: one connection carries the requests in flight (see createMultiplexedPool).
  if (upstream.allowH2) return createMultiplexedPool(upstream.origin, options, () => upstream.protocol)
  return new Pool(upstream.origin, options)
}

/** Closes a dispatcher once its requests are done; `close()` destroys it if still open then. */
function drain(state: PoolState, dispatcher: Dispatcher): void {
  state.draining.add(dispatcher)
  dispatcher
    .close()
    .catch(() => undefined)
    .finally(() => state.draining.delete(dispatcher))
}

/** What tells two routes' upstreams apart: origin, TLS check, HTTP/2 offer, socket, redirects, agent. */
function upstreamKey(
  state: PoolState,
  route: ResolvedForwardRoute,
  origin: string,
  allowH2: boolean,
): string {
  const { socketPath, followRedirects: redirects, agent } = route
  return `${origin} ${route.secure ? 'verified' : 'unverified'}${allowH2 ? ' h2' : ''}${socketPath === undefined ? '' : ` unix:${socketPath}`}${redirects > 0 ? ` redirects:${redirects}` : ''}${agent === undefined ? '' : ` agent:${agentId(state, agent.source)}`}`
}

/** A new upstream for the route's target: its connector (learning keep-alive, noting the protocol) and its pool. */
function createUpstream(
  state: PoolState,
  route: ResolvedForwardRoute,
  origin: string,
  allowH2: boolean,
): Upstream {
  const agent = route.agent
  const learner = createKeepAliveLearner(state.keepAliveTimeout)
  // The pool reads the upstream's protocol as connections report it: it must see this object.
  const created: Omit<Upstream, 'pool'> & { pool?: Dispatcher } = {
    origin,
    connect: createUpstreamConnector({
      secure: route.secure,
      onIdleClose(idleMs) {
        if (!learner.observe(idleMs) || state.closed || created.pool === undefined) return
        const old = created.pool
        created.pool = newPool(state, created)
        drain(state, old)
      },
      allowH2,
      onProtocol(protocol) {
        created.protocol = protocol
      },
      socketPath: route.socketPath,
      tls: agent?.tls,
    }),
    learner,
    allowH2,
    redirects: route.followRedirects,
    agent,
    protocol: undefined,
  }
  created.pool = newPool(state, created)
  return created as Upstream
}

function openUpstream(state: PoolState, route: ResolvedForwardRoute): Upstream {
  const origin = httpOrigin(route.target)
  // Only TLS negotiates HTTP/2: an http: target shares the HTTP/1.1 pool whatever `http2` says.
  const allowH2 = route.http2 && origin.startsWith('https:')
  const key = upstreamKey(state, route, origin, allowH2)
  let upstream = state.byKey.get(key)
  if (upstream === undefined) {
    upstream = createUpstream(state, route, origin, allowH2)
    state.byKey.set(key, upstream)
  }
  state.byRoute.set(route, upstream)
  return upstream
}

const upstreamOf = (state: PoolState, route: ResolvedForwardRoute): Upstream =>
  state.byRoute.get(route) ?? openUpstream(state, route)

/** A one-connection client to the route's target, for a retry (see `dispatchFresh`). */
function freshClient(state: PoolState, route: ResolvedForwardRoute): Client {
  const upstream = upstreamOf(state, route)
  return new Client(upstream.origin, {
    keepAliveTimeout: upstream.learner.timeout,
    bodyTimeout: 0,
    headersTimeout: 0,
    connect: upstream.connect,
    ...(upstream.allowH2 ? { allowH2: true } : {}),
  })
}

/**
 * Creates the upstream connection pools. Connections are kept alive and reused: a proxy that
 * opens one connection per request (as Vite's does) reaches about a third of the throughput;
 * the docs' Benchmark page has the numbers.
 * A pool is per origin *and* `secure` setting, so a route with `secure: false` never lends its
 * unverified TLS connections to a route that asked for verification.
 *
 * Timeouts: undici's own are off (`bodyTimeout` and `headersTimeout` 0): an event stream or a
 * long poll may stay idle for as long as the target likes, and the route's `timeout` is a timer
 * of the forwarder's, per request (see `Relay.start`), since undici's tick coarsely.
 *
 * Idle connections are kept `keepAliveTimeout` ms, or less once the target is seen closing them
 * sooner without saying so (see `createKeepAliveLearner`): the pool of that target is then
 * replaced by one with the learned timeout, the old one finishing its requests in flight.
 *
 * @example
 * const pools = createUpstreamPool()
 * await pools.poolFor(route).request({ path: '/users', method: 'GET' })
 * await pools.close()
 */
export function createUpstreamPool(options: UpstreamPoolOptions = {}): UpstreamPool {
  const state: PoolState = {
    connections: options.connections ?? null,
    keepAliveTimeout: options.keepAliveTimeout ?? 4_000,
    dispatcherFor: options.dispatcherFor,
    byKey: new Map(),
    byRoute: new WeakMap(),
    draining: new Set(),
    agentIds: new WeakMap(),
    agents: 0,
    closed: false,
  }
  return {
    protocolFor(route) {
      return upstreamOf(state, route).protocol
    },
    poolFor(route) {
      return upstreamOf(state, route).pool
    },
    dispatchFresh(route, dispatchOptions, handler) {
      if (state.dispatcherFor !== undefined) {
        upstreamOf(state, route).pool.dispatch(dispatchOptions, handler)
        return
      }
      const client = freshClient(state, route)
      client.dispatch(dispatchOptions, handler)
      // Closes the connection once this one request, body included, is done.
      drain(state, client)
    },
    keepAliveTimeoutFor(route) {
      return upstreamOf(state, route).learner.timeout
    },
    get size() {
      return state.byKey.size
    },
    async close() {
      state.closed = true
      const dispatchers = [...[...state.byKey.values()].map((upstream) => upstream.pool), ...state.draining]
      state.byKey.clear()
      state.draining.clear()
      state.byRoute = new WeakMap()
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.destroy().catch(() => undefined)))
    },
  }
}
