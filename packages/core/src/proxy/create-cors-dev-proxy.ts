/*
 * The engine, which proxy/assemble-proxy.ts builds for every front end. A request's path through
 * the core, each file once (ARCHITECTURE.md lists it too; each folder's main file has its details):
 *
 * 1. proxy/serve-before-app.ts: the dev server's own checks, then the proxy, before its app;
 * 2. proxy/assemble-proxy.ts: the endpoints under /__cors-dev-proxy/, else the routes (every
 *    front end: proxy/node-middleware.ts, proxy/dev-server-proxy.ts, proxy/create-fetch-handler.ts);
 * 3. proxy/create-cors-dev-proxy.ts (here, the engine): a non-origin-form target refused, the route
 *    matched once, its gate, the debug line and the inspector's record armed, the pipeline run;
 * 4. pipeline/route-pipeline.ts: the route's steps, CORS, JSONP, then the backend
 *    (proxy/create-backend-step.ts: the stand-ins the route uses, then the forwarder);
 * 5. forward/create-forwarder.ts: the body, then forward/prepare-request.ts (router,
 *    `pathRewrite`, headers), send;
 * 6. forward/relay.ts: the target's pool, the deadline, one retry, the answer's head and the
 *    `proxyRes` hooks (relay-head.ts);
 * 7. forward/relay-sink.ts (collect-sink.ts for `transformResponse`): the answer written to
 *    the client.
 *
 * What fails on the way is answered by forward/forward-failures.ts, never thrown.
 */

import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import { createViolationLog, type ViolationLog } from '../contract/violation-log.js'
import { isOriginFunctionError } from '../cors/cors-route-step.js'
import { createFailureLog } from '../forward/failure-log.js'
import { createUpstreamPool, type UpstreamPoolOptions } from '../forward/upstream-pool.js'
import { hasBody } from '../http/has-body.js'
import { lingerBeforeClose } from '../http/linger-close.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import type { ExchangeRecorder } from '../inspector/record-exchange.js'
import { describeExchange } from '../log/describe-routes.js'
import type { Logger } from '../log/logger.js'
import { type Exchange, newExchange } from '../pipeline/exchange.js'
import { createRequestMatcher, type RequestMatcher, type RouteMatch } from '../pipeline/match-route.js'
import { refuseConnect, refuseRequest } from '../pipeline/refuse-request.js'
import { createRouteGate, type GateVerdict, type RouteGate } from '../pipeline/route-gate.js'
import { type ControlBoard, createControlBoard } from '../stand-ins/control/control-board.js'
import { createRouteControl, type RouteControl } from '../stand-ins/control/route-control.js'
import { createRecordingStore, type RecordingStore } from '../stand-ins/recordings/recording-store.js'
import type { RouteMocks } from '../stand-ins/route-mocks/route-mocks.js'
import {
  type BuiltRoutePipeline,
  createRoutePipeline,
  type RoutePipelineDeps,
} from './create-route-pipeline.js'
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
  /** The live switches of the routes with control options (latency, faults, targets) or recordings (record), for the inspector's API. */
  readonly controls: ControlBoard
  /** The distinct OpenAPI violations the routes with `openapi` have seen; `undefined` when no route has one. */
  readonly violations: ViolationLog | undefined
  /** The routes with `mocks`, where the inspector's "Mock this answer" writes. */
  readonly mocks: readonly RouteMocks[]
  /** A route's stand-ins on the Fetch front end's WebSocket handshakes (see `BackendStep.fetchUpgrade`). */
  fetchUpgradeOf(route: ResolvedRoute): BuiltRoutePipeline['fetchUpgrade'] | undefined
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

/** What the proxy's handlers share, built once by `buildCorsDevProxy`. */
interface Engine {
  readonly logger: Logger
  readonly matchOf: RequestMatcher
  readonly pipelines: ReadonlyMap<ResolvedRoute, BuiltRoutePipeline>
  /** The routes' `pathFilter`/`bypass` gates (see `createRouteGate`). */
  readonly gates: ReadonlyMap<ResolvedRoute, RouteGate>
  readonly recorder: ExchangeRecorder | undefined
  /** The `ws` routes whose upgrades reached the middleware: said once per route. */
  readonly unwired: Set<string>
}

/** At debug level: one line per answered request, both hops, when it is done; the returned function cancels it. */
function traceExchange(
  engine: Engine,
  req: ProxyRequest,
  res: ProxyResponse,
  route: ResolvedRoute,
  exchange: Exchange,
): () => void {
  const start = performance.now()
  let passedOn = false
  res.once('close', () => {
    if (passedOn) return
    // No hop noted: a step before the backend answered (a CORS preflight, a JSONP refusal).
    const hop = exchange.hop ?? (route.kind === 'mock' ? 'mock backend' : 'cors-dev-proxy')
    engine.logger.debug(describeExchange(req, res.statusCode, hop, performance.now() - start))
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
function answerUnwiredUpgrade(
  engine: Engine,
  req: ProxyRequest,
  res: ProxyResponse,
  route: ResolvedRoute,
): void {
  if (!engine.unwired.has(route.prefix)) {
    engine.unwired.add(route.prefix)
    engine.logger.warn(
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

/** A request no route takes: to the dev server's next middleware, or 404 when there is none. */
function passToNext(res: ProxyResponse, next: NextFunction | undefined): void {
  if (next) next()
  else answerNotFound(res)
}

/** What a route's pipeline handed on: to `next`, else a 500 for an error (logged) or a 404. */
function afterPipeline(
  engine: Engine,
  req: ProxyRequest,
  res: ProxyResponse,
  next: NextFunction | undefined,
  route: ResolvedRoute,
  error: unknown,
): void {
  if (next) {
    next(error)
    return
  }
  if (error === undefined || error === null) {
    answerNotFound(res)
    return
  }
  logStepError(engine.logger, req, route, error)
  if (!res.headersSent) res.statusCode = 500
  res.end()
}

/**
 * Logs the error a route's step handed on (answered 500 by the caller). Such an error (an
 * origin function that throws on a forged Origin) can come with every request: one line per
 * route every 10 s. Shared by both front ends, so their lines are the same.
 *
 * @example
 * logStepError(logger, req, route, error)
 */
export function logStepError(logger: Logger, req: ProxyRequest, route: ResolvedRoute, error: unknown): void {
  logger.limited('error', `pipeline ${route.prefix}`, () => {
    const message = error instanceof Error ? error.message : String(error)
    const source = isOriginFunctionError(error)
      ? `the cors.origin function of route '${route.prefix}' threw`
      : `a step of route '${route.prefix}' failed`
    return `500 ${req.method} ${req.url}: ${source}: ${message}`
  })
}

/** The route takes the request: its steps run. */
function takeRequest(
  engine: Engine,
  req: ProxyRequest,
  res: ProxyResponse,
  next: NextFunction | undefined,
  match: RouteMatch,
): void {
  const { route } = match
  const pipeline = engine.pipelines.get(route) as BuiltRoutePipeline
  if (route.ws && req.headers.upgrade?.toLowerCase() === 'websocket') {
    answerUnwiredUpgrade(engine, req, res, route)
    return
  }
  // An answer may go out before the upload ends (an early 413, a 502): never cut it off.
  if (req.httpVersionMajor === 1 && hasBody(req)) lingerBeforeClose(req as IncomingMessage)
  const { recorder } = engine
  const debug = engine.logger.level === 'debug'
  // The request's exchange, only when something reads it: the inspector's record, the debug
  // line, or a route whose stand-ins keep state in it (control options: `throttle` notes the
  // upload's pace; recordings: the body copy). A plain route at `info` without the inspector
  // allocates nothing for it.
  const recording = recorder?.begin(req, res, route)
  const exchange = recording ?? (debug || pipeline.needsExchange ? newExchange() : undefined)
  const markPassedOn = debug ? traceExchange(engine, req, res, route, exchange as Exchange) : undefined
  pipeline.run(
    req,
    res,
    match.path,
    (error) => {
      markPassedOn?.()
      afterPipeline(engine, req, res, next, route, error)
    },
    exchange,
  )
  // The request body is tapped (while an inspector is open) once the forwarder made it flow.
  if (recording !== undefined) recorder?.started(req, recording)
}

/** The engine's pipelines and gates, one of each per route, built once. */
function buildRoutes(resolved: ResolvedCorsDevProxyOptions, logger: Logger, deps: RoutePipelineDeps) {
  const pipelines = new Map<ResolvedRoute, BuiltRoutePipeline>()
  const gates = new Map<ResolvedRoute, RouteGate>()
  const controls: RouteControl[] = []
  for (const route of resolved.routes) {
    // Only a route with control options (a control step) or recordings (a record switch) gets
    // live state: the others pay nothing.
    const control = createRouteControl(route)
    if (control !== undefined) controls.push(control)
    pipelines.set(route, createRoutePipeline(route, deps, control))
    const gate = createRouteGate(route, logger)
    if (gate !== undefined) gates.set(route, gate)
  }
  return { pipelines, gates, controls: createControlBoard(controls, logger) }
}

/** The recordings folder, only when a route records or replays. */
function recordingStoreIfUsed(
  resolved: ResolvedCorsDevProxyOptions,
  logger: Logger,
  root: string,
): RecordingStore | undefined {
  return resolved.routes.some((route) => route.kind === 'forward' && (route.record || route.replay))
    ? createRecordingStore(resolved.recordings, logger, root)
    : undefined
}

/**
 * The proxy of a configuration already resolved, reporting through `logger`: what
 * `createCorsDevProxy` and the adapters' set-up share. Nothing is validated here, so nothing
 * here throws a configuration error; the resolution's warnings are logged once. `root` is where
 * a relative `recordings.dir` goes (the adapters pass the dev server's root).
 *
 * @example
 * const resolved = resolveOptions(routes, options)
 * const proxy = buildCorsDevProxy(resolved, createLogger(resolved.log, sink))
 */
export function buildCorsDevProxy(
  resolved: ResolvedCorsDevProxyOptions,
  logger: Logger,
  recorder?: ExchangeRecorder,
  poolOptions?: UpstreamPoolOptions,
  root: string = process.cwd(),
): EngineProxy {
  for (const warning of resolved.warnings) logger.warn(warning)
  const matchOf = createRequestMatcher(resolved.routes)
  const pool = createUpstreamPool(poolOptions)
  const failures = createFailureLog(logger)
  const sockets = new Set<Duplex>()
  const recordings = recordingStoreIfUsed(resolved, logger, root)
  const violations = resolved.routes.some((route) => route.kind === 'forward' && route.openapi !== undefined)
    ? createViolationLog(logger)
    : undefined
  const { pipelines, gates, controls } = buildRoutes(resolved, logger, {
    pool,
    logger,
    failures,
    recordings,
    root,
    violations,
  })
  const engine: Engine = { logger, matchOf, pipelines, gates, recorder, unwired: new Set() }
  const routeMocks = [...pipelines.values()].flatMap((pipeline) => pipeline.mocks ?? [])

  function corsDevProxyMiddleware(req: ProxyRequest, res: ProxyResponse, next?: NextFunction): void {
    if (refuseRequest(req, res)) return
    const match = matchOf.withoutMemo(req)
    if (match === undefined || !pipelines.has(match.route)) {
      passToNext(res, next)
      return
    }
    const gate = gates.get(match.route)
    if (gate === undefined) {
      takeRequest(engine, req, res, next, match)
      return
    }
    const verdict = gate(req, res, match.path)
    const decide = (settled: GateVerdict): void => {
      if (settled === 'take') takeRequest(engine, req, res, next, match)
      else if (settled === 'pass') passToNext(res, next)
    }
    if (verdict instanceof Promise) void verdict.then(decide)
    else decide(verdict)
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
    controls,
    violations,
    mocks: routeMocks,
    fetchUpgradeOf: (route: ResolvedRoute) => pipelines.get(route)?.fetchUpgrade,
    logger,
    matchOf,
    async close() {
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      const routes = [...pipelines.values()].map((pipeline) => pipeline.close())
      await Promise.all([pool.close(), ...routes, recordings?.flush()])
      failures.flush()
      logger.flush()
    },
  })
}
