/*
 * inspector/: everything under `/__cors-dev-proxy/`. The recorder (record-exchange.ts) puts a
 * record on each request a route takes and its response, under a symbol (no WeakMap entry, no
 * closure per request), and completes it into a fixed ring (exchange-ring.ts) when the response
 * closes; the head is parsed, masked (http/mask-secrets.ts) and judged (exchange-view.ts) only
 * when the page, its event stream or the HAR (har-export.ts) asks, and bodies are copied only
 * while a client listens. Replay (replay-exchange.ts) resends a record to the dev server's own
 * loopback address with a one-time token. `explain` (explain-call.ts) runs the browser model on
 * a page's failed call through safe-probe.ts (the preflight and one GET or HEAD at most, never a
 * call with side effects), behind a memo (30 s), a per-host budget (10 probes a minute) and
 * four turns at once (call-explainer.ts); suggest-route.ts and explain-websocket.ts write the
 * fix. Which endpoints exist is one rule (served-endpoints.ts), from which the browser scripts
 * learn it too; the stand-ins bring their own endpoints (`/control`, `/mock`).
 *
 * The endpoints under `/__cors-dev-proxy/`, one file each, routed here in one place from the
 * description of what exists (served-endpoints.ts): the page (page-endpoint.ts), the overlay's
 * script and `explain` (explain-endpoint.ts), the live switches
 * (stand-ins/control/control-endpoint.ts), "Mock this answer"
 * (stand-ins/route-mocks/mock-endpoint.ts), the exchanges and their stream (events-endpoint.ts), the HAR
 * export (har-endpoint.ts) and replay (replay-endpoint.ts). Every request is checked first by
 * inspector-guard.ts; every answer carries the headers of endpoint-answers.ts.
 */
import type { ServedEndpoints } from '../client/served-endpoints.js'
import type { ResolvedInspectorOptions } from '../config/resolve-inspector-options.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ViolationLog } from '../contract/violation-log.js'
import { maskUrlsIn } from '../http/mask-secrets.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Logger } from '../log/logger.js'
import type { ControlBoard } from '../stand-ins/control/control-board.js'
import { serveControl } from '../stand-ins/control/control-endpoint.js'
import { type MockWriter, serveMock } from '../stand-ins/route-mocks/mock-endpoint.js'
import { createCallExplainer } from './call-explainer.js'
import { JSON_TYPE, SCRIPT_TYPE, sendJson, sendOwn, TEXT_TYPE } from './endpoint-answers.js'
import { broadcastExplanation, serveEvents } from './events-endpoint.js'
import { viewExchange } from './exchange-view.js'
import { serveExplain } from './explain-endpoint.js'
import type { WebSocketCarrier } from './explain-websocket.js'
import { serveHar } from './har-endpoint.js'
import { INSPECTOR_BASE, refusalOf } from './inspector-guard.js'
import { isPagePath, serveInspectorOff, servePage, serveScript } from './page-endpoint.js'
import type { ExchangeRecorder } from './record-exchange.js'
import { serveReplay } from './replay-endpoint.js'
import { createReplayer, type Replayer } from './replay-exchange.js'
import { PENDING_CHECKS_HEADER, violationsView } from './violations-view.js'

/** What the endpoints under `/__cors-dev-proxy/` need. */
export interface InspectorEndpointsOptions {
  /** Which endpoints exist (see `servedEndpointsOf`): the one rule the routing below follows. */
  readonly served: ServedEndpoints
  /** The recorder, or `undefined` with `inspector: false`. */
  readonly recorder: ExchangeRecorder | undefined
  readonly inspector: ResolvedInspectorOptions | undefined
  readonly routes: readonly ResolvedRoute[]
  readonly logger: Logger
  /** The dev server's loopback URL, for replays. */
  readonly ownUrl: () => string | undefined
  /** The overlay's client script and the inspector page's script (from `client/`). */
  readonly scripts: { readonly client: string; readonly inspector: string }
  /**
   * The routes' live switches (`/control`), an empty board when no route has control options or
   * recordings: `GET /control` then answers an empty list, never a 404 (an older client asks).
   */
  readonly controls: ControlBoard
  /** "Mock this answer" (`/mock`); `undefined`: no route has `mocks`, and `GET /mock` lists none. */
  readonly mocks?: MockWriter | undefined
  /** How the front end carries WebSockets, for the fix of a failed one. @default 'upgrade' */
  readonly webSockets?: WebSocketCarrier | undefined
  /** The distinct OpenAPI violations, when a route has `openapi` (`GET /violations`). */
  readonly violations?: ViolationLog | undefined
}

/** The endpoints: a handler for every request under `/__cors-dev-proxy`, and `close`. */
export interface InspectorEndpoints {
  handle(req: ProxyRequest, res: ProxyResponse): void
  close(): Promise<void>
}

/** "Mock this answer" where no route has `mocks`: a client that asks learns there are none. */
const NO_MOCKS: MockWriter = Object.freeze({
  routes: () => [],
  write: async () => ({
    status: 404,
    body: { error: 'no route has mocks: add mocks: true to a route, and its answers can be mocked' },
  }),
})

/** What the endpoints share, built once by `createInspectorEndpoints` and read by each step below. */
interface EndpointsContext {
  readonly options: InspectorEndpointsOptions
  readonly replayer: Replayer
  /** The open `/events` streams, which explanations are broadcast to and `close` ends. */
  readonly streams: Set<ProxyResponse>
  readonly explainer: ReturnType<typeof createCallExplainer>
}

/** One request under `/__cors-dev-proxy`: its path below the base, its method, and whether it only reads. */
interface InspectorCall {
  readonly url: string
  readonly path: string
  readonly method: string
  readonly read: boolean
}

/**
 * Creates the endpoints under `/__cors-dev-proxy/` that `options.served` says exist: the
 * inspector page (`/`) and its script, the overlay's client script (`/client.js`), the exchanges
 * as JSON (`/exchanges`) and live (`/events`, server-sent events), the HAR 1.2 export (`/har`),
 * replay (`POST /replay/<id>`), explain (`POST /explain`) and the recent explanations
 * (`/explanations`, also streamed as `explanation` events), the live switches (`/control`),
 * "Mock this answer" (`/mock`). Each request is checked first (see `refusalOf`): only the dev
 * server's own pages are answered. Nothing here throws at a request: a bad body is a 400.
 *
 * @example
 * const endpoints = createInspectorEndpoints({ served, recorder, inspector, routes, logger, ownUrl, scripts, controls })
 * if (isInspectorPath(req.url)) endpoints.handle(req, res)
 */
export function createInspectorEndpoints(options: InspectorEndpointsOptions): InspectorEndpoints {
  const streams = new Set<ProxyResponse>()
  const ctx: EndpointsContext = {
    options,
    replayer: createReplayer(options.ownUrl),
    streams,
    explainer: createCallExplainer({
      routes: options.routes,
      onExplained: (explained) => broadcastExplanation(streams, explained),
      ...(options.webSockets === undefined ? {} : { webSockets: options.webSockets }),
    }),
  }
  return {
    handle(req, res) {
      try {
        routeInspectorRequest(ctx, req, res)
      } catch (error) {
        // Never the dev server's crash: a mistake here is a 500 and one log line.
        options.logger.limited(
          'error',
          'inspector',
          () => `the inspector failed on ${req.method} ${req.url}: ${String(error)}`,
        )
        sendOwn(res, 500, TEXT_TYPE, 'cors-dev-proxy: internal error\n')
      }
    },
    async close() {
      for (const stream of streams) stream.end()
      streams.clear()
      await ctx.replayer.close()
    },
  }
}

/** The request's path below the base, its method, and whether it only reads. */
function callOf(req: ProxyRequest): InspectorCall {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  const method = req.method ?? 'GET'
  return {
    url,
    path: (query < 0 ? url : url.slice(0, query)).slice(INSPECTOR_BASE.length),
    method,
    read: method === 'GET' || method === 'HEAD',
  }
}

/**
 * The request routed in order: refused unless from the dev server's own pages, then the
 * overlay's endpoints, `/control`, and the inspector's own (or the page saying it is off).
 */
function routeInspectorRequest(ctx: EndpointsContext, req: ProxyRequest, res: ProxyResponse): void {
  if (refused(ctx, req, res)) return
  const call = callOf(req)
  const { served, recorder } = ctx.options
  if (served.explain && servedOverlay(ctx, req, res, call)) return
  // Answered whatever the routes are: a dev server without switches lists none (an older
  // overlay's badge asks on every page, and a 404 would be a failed request of ours there).
  if (call.path === '/control' && serveControl(req, res, ctx.options.controls, sendJson)) return
  if (call.read && call.path === '/violations' && served.violations === true) {
    // Checks run after the answers close: the overlay asks again while some are still running.
    res.setHeader(PENDING_CHECKS_HEADER, String(ctx.options.violations?.pending ?? 0))
    sendJson(res, 200, violationsView(ctx.options.violations))
    return
  }
  if (!served.inspector || recorder === undefined) {
    serveInspectorOff(res, call.read && isPagePath(call.path))
    return
  }
  if (servedRead(ctx, res, call, recorder) || servedChange(ctx, req, res, call, recorder)) return
  sendOwn(res, 404, TEXT_TYPE, `cors-dev-proxy: nothing at ${INSPECTOR_BASE}${call.path}\n`)
}

/** A request not from the dev server's own pages: a 403 and one (limited) warning; `true` when refused. */
function refused(ctx: EndpointsContext, req: ProxyRequest, res: ProxyResponse): boolean {
  const refusal = refusalOf(req)
  if (refusal === undefined) return false
  ctx.options.logger.limited(
    'warn',
    'inspector refusal',
    () => `refused ${req.method} ${req.url}: ${refusal}; only the dev server's own pages may use it`,
  )
  sendOwn(
    res,
    403,
    TEXT_TYPE,
    `cors-dev-proxy: ${refusal}; only the dev server's own pages may use ${INSPECTOR_BASE}/\n`,
  )
  return true
}

/** The overlay's script and `explain`; `true` when answered. */
function servedOverlay(
  ctx: EndpointsContext,
  req: ProxyRequest,
  res: ProxyResponse,
  call: InspectorCall,
): boolean {
  if (call.read && call.path === '/client.js') {
    sendOwn(res, 200, SCRIPT_TYPE, ctx.options.scripts.client)
    return true
  }
  if (call.method === 'POST' && call.path === '/explain') {
    serveExplain(req, res, ctx.explainer).catch((error: unknown) =>
      sendJson(res, 500, { error: String(error) }),
    )
    return true
  }
  return false
}

/** The inspector's reads: its page, script, exchanges, explanations and HAR; `true` when answered. */
function servedRead(
  ctx: EndpointsContext,
  res: ProxyResponse,
  call: InspectorCall,
  recorder: ExchangeRecorder,
): boolean {
  if (!call.read) return false
  if (isPagePath(call.path)) servePage(res)
  else if (call.path === '/inspector.js') serveScript(res, ctx.options.scripts.inspector)
  else if (call.path === '/exchanges') sendJson(res, 200, recorder.ring.list().map(viewExchange))
  else if (call.path === '/explanations') {
    const list = maskUrlsIn(JSON.stringify(ctx.options.served.explain ? ctx.explainer.recent() : []))
    sendOwn(res, 200, JSON_TYPE, `${list}\n`)
  } else if (call.path === '/har') serveHar(res, recorder.ring.list(), call.url.includes('download'))
  else return false
  return true
}

/** `/mock` (read or written), the `/events` stream and replay; `true` when answered. */
function servedChange(
  ctx: EndpointsContext,
  req: ProxyRequest,
  res: ProxyResponse,
  call: InspectorCall,
  recorder: ExchangeRecorder,
): boolean {
  const { path, method } = call
  if (path === '/mock') {
    const ring = recorder.ring
    return serveMock(req, res, ctx.options.mocks ?? NO_MOCKS, (id) => ring.get(id), sendJson)
  }
  if (method === 'GET' && path === '/events') {
    serveEvents(req, res, recorder.ring, ctx.streams)
    return true
  }
  const replayed = /^\/replay\/(\d{1,12})$/.exec(path)
  if (method !== 'POST' || replayed === null) return false
  void serveReplay(res, Number(replayed[1]), recorder, ctx.replayer, ctx.options.inspector?.exchanges ?? 0)
  return true
}
