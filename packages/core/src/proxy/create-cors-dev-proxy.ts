import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { consoleLogSink } from '../config/defaults.js'
import type { CorsDevProxyConfig } from '../config/define-config.js'
import type { CorsDevProxyOptions, Routes } from '../config/options.js'
import { resolveOptions } from '../config/resolve-options.js'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import { isOriginFunctionError } from '../cors/cors-route-step.js'
import { createFailureLog } from '../forward/failure-log.js'
import { hasBody } from '../forward/request-body.js'
import { createUpstreamPool } from '../forward/upstream-pool.js'
import { lingerBeforeClose } from '../http/linger-close.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import type { ExchangeRecorder } from '../inspector/record-exchange.js'
import { describeExchange } from '../log/describe-routes.js'
import { createLogger, type Logger } from '../log/logger.js'
import { createRequestMatcher, type RequestMatcher, type RouteMatch } from '../pipeline/match-route.js'
import { refuseConnect, refuseRequest } from '../pipeline/refuse-request.js'
import { createRouteGate, type GateVerdict, type RouteGate } from '../pipeline/route-gate.js'
import { subscribeUpgradeOnFirstRequest } from './auto-upgrade.js'
import { type BuiltRoutePipeline, createRoutePipeline } from './create-route-pipeline.js'
import { createUpgradeHandler } from './proxy-upgrade.js'

/** The proxy engine: a middleware for HTTP requests, an upgrade handler for WebSockets, and `close`. */
export interface CorsDevProxy {
  /**
   * A connect/Express middleware that also works as the bare request handler of `http`,
   * `https` and `http2` (compatibility API) servers. A request no route matches goes to
   * `next()`, or is answered 404 when there is no `next`. With `ws` routes (and
   * `subscribeUpgrade`, the default), the first request from a server subscribes `upgrade` to
   * its `'upgrade'` event, as http-proxy-middleware does (see `subscribeUpgradeOnFirstRequest`).
   */
  middleware(req: ProxyRequest, res: ProxyResponse, next?: NextFunction): void
  /**
   * The `'upgrade'` listener: forwards the WebSocket handshake of a `ws` route (or hands it to
   * the echo at `/ws` of a `mock` route with `ws: true`) and returns `true`; answers an upgrade
   * to another protocol than WebSocket (`h2c`) on a route's path 400 and returns `true`;
   * returns `false` without touching the socket for any other upgrade (the dev server's own
   * HMR socket), so another listener can take it.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /**
   * The `'connect'` listener of an HTTP/1.1 server: answers CONNECT with 400 and closes the
   * socket, so the dev server never tunnels anywhere (Node would otherwise reset the socket
   * without a word). Not for HTTP/2 servers, whose `'connect'` event has another signature and
   * which answer CONNECT 405 by themselves.
   */
  connect(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /**
   * Closes the upstream pools, the forwarded WebSockets and the mock backends (event streams,
   * delayed answers, echo sockets), and prints pending log summaries.
   */
  close(): Promise<void>
  /** The resolved routes, longest prefix first. */
  readonly routes: readonly ResolvedRoute[]
}

/**
 * The engine as the adapters' set-up uses it: the public proxy plus its logger and the
 * per-request route lookup, so an adapter logs through the proxy's one logger and matches each
 * request once.
 */
export interface EngineProxy extends CorsDevProxy {
  /** The proxy's logger (one per proxy: de-duplication and summaries cover everything). */
  readonly logger: Logger
  /** The route of a request, matched once per request (see `createRequestMatcher`). */
  readonly matchOf: RequestMatcher
}

const NOT_FOUND = 'Not Found: no cors-dev-proxy route matches this path\n'

/** The answer for an unmatched request when the middleware is the whole server (no `next`). */
function answerNotFound(res: ProxyResponse): void {
  sendText(res, 404, 'text/plain; charset=utf-8', NOT_FOUND)
}

/**
 * Creates the proxy: validates and resolves the routes once (a mistake throws
 * `CorsDevProxyError` here, naming the option and showing a fix), builds each route's pipeline
 * once, and returns the handlers a server plugs in. Logs go to `options.logger`, else the console.
 * Takes `(routes, options?)` or one `{ routes, ...options }` object (see `defineConfig`).
 *
 * @example
 * const proxy = createCorsDevProxy({ '/api': 'http://localhost:3000', '/socket': { target: 'ws://localhost:3001', ws: true } })
 * const server = http.createServer((req, res) => proxy.middleware(req, res))
 * // false: no ws route takes it; on a server in front of a framework, hand it to the framework instead
 * server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
 * server.on('close', () => proxy.close())
 */
export function createCorsDevProxy(
  routes: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): CorsDevProxy {
  const resolved = resolveOptions(routes, options)
  const engine = buildCorsDevProxy(resolved, createLogger(resolved.log, resolved.logger ?? consoleLogSink))
  const { connect, close } = engine
  // hpm's wiring for `app.use(proxy.middleware)` alone; nothing added without `ws` routes.
  const { middleware, upgrade } =
    resolved.subscribeUpgrade && resolved.routes.some((route) => route.ws)
      ? subscribeUpgradeOnFirstRequest(engine.middleware, engine.upgrade)
      : engine
  return Object.freeze({ middleware, upgrade, connect, close, routes: resolved.routes })
}

/**
 * The proxy of a configuration already resolved, reporting through `logger`: what
 * `createCorsDevProxy` and the adapters' set-up share. Nothing is validated here, so nothing
 * here throws a configuration error; the resolution's warnings are logged once.
 *
 * @example
 * const resolved = resolveOptions(routes, options)
 * const proxy = buildCorsDevProxy(resolved, createLogger(resolved.log, sink))
 */
export function buildCorsDevProxy(
  resolved: ResolvedCorsDevProxyOptions,
  logger: Logger,
  recorder?: ExchangeRecorder,
): EngineProxy {
  for (const warning of resolved.warnings) logger.warn(warning)
  const matchOf = createRequestMatcher(resolved.routes)
  const pool = createUpstreamPool()
  const failures = createFailureLog(logger)
  const sockets = new Set<Duplex>()
  // Each forwarded request's upstream URL, for the debug line and the inspector; only kept when
  // one of them reads it.
  const hops = recorder?.hops ?? (logger.level === 'debug' ? new WeakMap<object, string>() : undefined)
  const heads = recorder?.heads
  const pipelines = new Map<ResolvedRoute, BuiltRoutePipeline>()
  for (const route of resolved.routes) {
    pipelines.set(route, createRoutePipeline(route, { pool, logger, failures, hops, heads }))
  }
  const gates = new Map<ResolvedRoute, RouteGate>()
  for (const route of resolved.routes) {
    const gate = createRouteGate(route, logger)
    if (gate !== undefined) gates.set(route, gate)
  }
  const unwired = new Set<string>()

  /** At debug level: one line per answered request, both hops, when it is done. */
  function trace(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): () => void {
    const start = performance.now()
    let passedOn = false
    res.once('close', () => {
      if (passedOn) return
      const hop = hops?.get(req) ?? (route.kind === 'mock' ? 'mock backend' : 'cors-dev-proxy')
      logger.debug(describeExchange(req, res.statusCode, hop, performance.now() - start))
    })
    return () => {
      passedOn = true
    }
  }

  /**
   * An upgrade reaches the middleware only when no `'upgrade'` listener took it: the server
   * was not given `proxy.upgrade`. Answering 501 (and saying how to wire it) beats forwarding
   * the handshake as a plain GET, which the target would answer with something confusing.
   */
  function answerUnwiredUpgrade(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): void {
    if (!unwired.has(route.prefix)) {
      unwired.add(route.prefix)
      logger.warn(
        `WebSocket upgrade ${req.url} reached the middleware of ws route '${route.prefix}': the server does not hand upgrades to cors-dev-proxy. ` +
          "Fix: server.on('upgrade', (req, socket, head) => { if (!proxy.upgrade(req, socket, head)) socket.destroy() }), " +
          'and where a framework has upgrades of its own (its HMR socket), hand those to it instead of destroying them',
      )
    }
    sendText(
      res,
      501,
      'text/plain; charset=utf-8',
      'WebSocket upgrades are not wired to cors-dev-proxy on this server\n',
    )
  }

  function passOnward(res: ProxyResponse, next: NextFunction | undefined): void {
    if (next) next()
    else answerNotFound(res)
  }

  function corsDevProxyMiddleware(req: ProxyRequest, res: ProxyResponse, next?: NextFunction): void {
    if (refuseRequest(req, res)) return
    const match = matchOf.withoutMemo(req)
    if (match === undefined || !pipelines.has(match.route)) {
      passOnward(res, next)
      return
    }
    const gate = gates.get(match.route)
    if (gate === undefined) {
      take(req, res, next, match)
      return
    }
    const verdict = gate(req, res, match.path)
    const decide = (settled: GateVerdict): void => {
      if (settled === 'take') take(req, res, next, match)
      else if (settled === 'pass') passOnward(res, next)
    }
    if (verdict instanceof Promise) void verdict.then(decide)
    else decide(verdict)
  }

  /** The route takes the request: its steps run. */
  function take(
    req: ProxyRequest,
    res: ProxyResponse,
    next: NextFunction | undefined,
    match: RouteMatch,
  ): void {
    const pipeline = pipelines.get(match.route) as BuiltRoutePipeline
    if (match.route.ws && req.headers.upgrade?.toLowerCase() === 'websocket') {
      answerUnwiredUpgrade(req, res, match.route)
      return
    }
    // An answer may go out before the upload ends (an early 413, a 502): never cut it off.
    if (req.httpVersionMajor === 1 && hasBody(req)) lingerBeforeClose(req as IncomingMessage)
    const passOn = logger.level !== 'debug' ? undefined : trace(req, res, match.route)
    const started = recorder?.begin(req, res, match.route)
    pipeline.run(req, res, match.path, (error) => {
      passOn?.()
      if (next) next(error)
      else if (error !== undefined && error !== null) {
        // A step's error (an origin function that throws on a forged Origin) can come with
        // every request: one line per route every 10 s.
        logger.limited('error', `pipeline ${match.route.prefix}`, () => {
          const message = error instanceof Error ? error.message : String(error)
          const source = isOriginFunctionError(error)
            ? `the cors.origin function of route '${match.route.prefix}' threw`
            : `a step of route '${match.route.prefix}' failed`
          return `500 ${req.method} ${req.url}: ${source}: ${message}`
        })
        if (!res.headersSent) res.statusCode = 500
        res.end()
      } else answerNotFound(res)
    })
    // The request body is tapped (while an inspector is open) once the forwarder made it flow.
    started?.()
  }

  return Object.freeze({
    middleware: corsDevProxyMiddleware,
    upgrade: createUpgradeHandler({
      routes: resolved.routes,
      matchOf,
      pipelines,
      gates,
      logger,
      failures,
      sockets,
    }),
    connect: refuseConnect,
    routes: resolved.routes,
    logger,
    matchOf,
    async close() {
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      const mocks = [...pipelines.values()].flatMap((pipeline) => pipeline.mock ?? [])
      await Promise.all([pool.close(), ...mocks.map((mock) => mock.backend.close())])
      failures.flush()
      logger.flush()
    },
  })
}
