import { readFileSync } from 'node:fs'
import type { ResolvedInspectorOptions } from '../config/resolve-inspector-options.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { maskUrlsIn } from '../http/mask-secrets.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { readJsonBody } from '../http/read-json-body.js'
import { requestedOrigin } from '../http/request-origin.js'
import { sendText } from '../http/send-text.js'
import type { Logger } from '../log/logger.js'
import type { ControlBoard } from '../stand-ins/control/control-board.js'
import { serveControl } from '../stand-ins/control/control-endpoint.js'
import { type MockWriter, serveMock } from '../stand-ins/route-mocks/mock-endpoint.js'
import { createCallExplainer, type ExplainedCall } from './call-explainer.js'
import type { FailedCall } from './call-explanation.js'
import type { ExchangeRecord } from './exchange-ring.js'
import { viewExchange } from './exchange-view.js'
import type { WebSocketCarrier } from './explain-websocket.js'
import { harOf } from './har-export.js'
import { INSPECTOR_ANSWER_HEADER, INSPECTOR_BASE, refusalOf } from './inspector-guard.js'
import { inspectorPage } from './inspector-page.js'
import type { ExchangeRecorder } from './record-exchange.js'
import { createReplayer } from './replay-exchange.js'

/** What the endpoints under `/__cors-dev-proxy/` need. */
export interface InspectorEndpointsOptions {
  /** The recorder, or `undefined` with `inspector: false`. */
  readonly recorder: ExchangeRecorder | undefined
  readonly inspector: ResolvedInspectorOptions | undefined
  /** Serve the overlay's script and `explain`. */
  readonly overlay: boolean
  readonly routes: readonly ResolvedRoute[]
  readonly logger: Logger
  /** The dev server's loopback URL, for replays. */
  readonly ownUrl: () => string | undefined
  /** The overlay's client script and the inspector page's script (from `client/`). */
  readonly scripts: { readonly client: string; readonly inspector: string }
  /**
   * The routes' live switches (`/control`), an empty board when no route has control options or
   * recordings: `GET /control` then answers an empty list, which the overlay's badge reads as
   * "nothing to watch", never a 404 in the page's Network panel.
   */
  readonly controls: ControlBoard
  /** "Mock this answer" (`/mock`); `undefined`: no route has `mocks`, and `GET /mock` lists none. */
  readonly mocks?: MockWriter | undefined
  /** How the front end carries WebSockets, for the fix of a failed one. @default 'upgrade' */
  readonly webSockets?: WebSocketCarrier | undefined
}

/** The endpoints: a handler for every request under `/__cors-dev-proxy`, and `close`. */
export interface InspectorEndpoints {
  handle(req: ProxyRequest, res: ProxyResponse): void
  close(): Promise<void>
}

/** Our HAR files' `creator`: the core's package name and version (package.json is one level above `dist/` and `src/`). */
const CREATOR = Object.freeze({
  name: '@cors-dev-proxy/core',
  version: (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version,
})
const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
/** Nothing here is cached, nothing here is sniffed, and every answer says it is ours. */
const COMMON: ReadonlyArray<readonly [string, string]> = [
  ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'],
  [INSPECTOR_ANSWER_HEADER, '1'],
]
const EXPLAIN_LIMIT = 64 * 1024
/** What `/__cors-dev-proxy/` shows with `inspector: false` (the overlay still links it). */
const INSPECTOR_OFF_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cors-dev-proxy inspector</title><link rel="icon" href="data:,"></head><body><p>The cors-dev-proxy inspector is off in this dev server\'s config (<code>inspector: false</code>): remove it to list the exchanges here.</p></body></html>\n'
/** Bytes an event stream may hold unsent before its events are dropped (a client that does not read). */
const STREAM_BACKLOG = 1024 * 1024

function sendJson(
  res: ProxyResponse,
  status: number,
  value: unknown,
  extra: ReadonlyArray<readonly [string, string]> = [],
): void {
  sendText(res, status, JSON_TYPE, `${JSON.stringify(value)}\n`, [...COMMON, ...extra])
}

/** "Mock this answer" where no route has `mocks`: the inspector page asks, and learns there are none. */
const NO_MOCKS: MockWriter = Object.freeze({
  routes: () => [],
  write: async () => ({
    status: 404,
    body: { error: 'no route has mocks: add mocks: true to a route, and its answers can be mocked' },
  }),
})

const INITIATORS = new Set(['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'])
const CREDENTIALS = new Set(['omit', 'same-origin', 'include'])

/** The client's description of a failed call, checked field by field; `undefined` when malformed. */
function failedCallOf(body: unknown): FailedCall | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const { url, method, headers, credentials, initiator } = body as Record<string, unknown>
  if (typeof url !== 'string' || !/^(https?|wss?):\/\//i.test(url)) return undefined
  try {
    new URL(url)
  } catch {
    return undefined
  }
  if (typeof method !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/.test(method)) return undefined
  const pairs = Array.isArray(headers) ? headers : []
  const checked: [string, string][] = []
  for (const pair of pairs.slice(0, 64)) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string')
      checked.push([pair[0], pair[1]])
  }
  return {
    url,
    method,
    headers: checked,
    credentials: CREDENTIALS.has(credentials as string)
      ? (credentials as FailedCall['credentials'])
      : 'same-origin',
    initiator: INITIATORS.has(initiator as string) ? (initiator as FailedCall['initiator']) : 'fetch',
  }
}

/**
 * Creates the endpoints under `/__cors-dev-proxy/`: the inspector page (`/`) and its script,
 * the overlay's client script (`/client.js`), the exchanges as JSON (`/exchanges`) and live
 * (`/events`, server-sent events), the HAR 1.2 export (`/har`), replay (`POST /replay/<id>`),
 * explain (`POST /explain`) and the recent explanations (`/explanations`, also streamed as
 * `explanation` events), the live switches (`/control`, see `serveControl`), "Mock this answer" (`/mock`, see `serveMock`). Each request is checked first (see `refusalOf`): only the dev
 * server's own pages are answered. Nothing here throws at a request: a bad body is a 400.
 *
 * @example
 * const endpoints = createInspectorEndpoints({ recorder, inspector, overlay: true, routes, logger, ownUrl, scripts, controls })
 * if (isInspectorPath(req.url)) endpoints.handle(req, res)
 */
export function createInspectorEndpoints(options: InspectorEndpointsOptions): InspectorEndpoints {
  const streams = new Set<ProxyResponse>()
  /** A new explanation, to every inspector listening (as an `explanation` event). */
  function onExplained(explained: ExplainedCall): void {
    broadcastExplanation(streams, explained)
  }
  const ctx: EndpointsContext = {
    options,
    replayer: createReplayer(options.ownUrl),
    streams,
    explainer: createCallExplainer({
      routes: options.routes,
      onExplained,
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
        sendText(res, 500, TEXT_TYPE, 'cors-dev-proxy: internal error\n', COMMON)
      }
    },
    async close() {
      for (const stream of streams) stream.end()
      streams.clear()
      await ctx.replayer.close()
    },
  }
}

/** What the endpoints share, built once by `createInspectorEndpoints` and read by each step below. */
interface EndpointsContext {
  readonly options: InspectorEndpointsOptions
  readonly replayer: ReturnType<typeof createReplayer>
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

/** A new explanation, to every inspector listening (as an `explanation` event). */
function broadcastExplanation(streams: ReadonlySet<ProxyResponse>, explained: ExplainedCall): void {
  const event = `event: explanation\ndata: ${maskUrlsIn(JSON.stringify(explained))}\n\n`
  for (const stream of streams) {
    if (((stream as { writableLength?: number }).writableLength ?? 0) <= STREAM_BACKLOG)
      (stream as ProxyResponse & { write(chunk: string): boolean }).write(event)
  }
}

/**
 * The request routed in order: refused unless from the dev server's own pages, then the
 * overlay's endpoints, `/control`, and the inspector's own (or the page saying it is off).
 */
function routeInspectorRequest(ctx: EndpointsContext, req: ProxyRequest, res: ProxyResponse): void {
  if (refused(ctx, req, res)) return
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  const method = req.method ?? 'GET'
  const call: InspectorCall = {
    url,
    path: (query < 0 ? url : url.slice(0, query)).slice(INSPECTOR_BASE.length),
    method,
    read: method === 'GET' || method === 'HEAD',
  }
  if (servedOverlay(ctx, req, res, call)) return
  // Asked by the overlay's badge on every page, so answered whatever the routes and the
  // inspector are: a dev server without switches lists none (a 404 would be a failed request
  // of ours in the page).
  if (call.path === '/control' && serveControl(req, res, ctx.options.controls, sendJson)) return
  const { recorder } = ctx.options
  if (recorder === undefined) {
    serveInspectorOff(res, call)
    return
  }
  if (servedInspector(ctx, req, res, call, recorder)) return
  sendText(res, 404, TEXT_TYPE, `cors-dev-proxy: nothing at ${INSPECTOR_BASE}${call.path}\n`, COMMON)
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
  sendText(
    res,
    403,
    TEXT_TYPE,
    `cors-dev-proxy: ${refusal}; only the dev server's own pages may use ${INSPECTOR_BASE}/\n`,
    COMMON,
  )
  return true
}

/** The overlay's script and `explain`, when the overlay is on; `true` when answered. */
function servedOverlay(
  ctx: EndpointsContext,
  req: ProxyRequest,
  res: ProxyResponse,
  call: InspectorCall,
): boolean {
  if (!ctx.options.overlay) return false
  if (call.read && call.path === '/client.js') {
    sendText(res, 200, 'text/javascript; charset=utf-8', ctx.options.scripts.client, COMMON)
    return true
  }
  if (call.method === 'POST' && call.path === '/explain') {
    explain(ctx, req, res).catch((error: unknown) => sendJson(res, 500, { error: String(error) }))
    return true
  }
  return false
}

/** With `inspector: false`: the page says so (the overlay links it), anything else is a 404. */
function serveInspectorOff(res: ProxyResponse, call: InspectorCall): void {
  if (call.read && (call.path === '/' || call.path === '')) {
    sendText(res, 200, 'text/html; charset=utf-8', INSPECTOR_OFF_PAGE, COMMON)
    return
  }
  sendText(res, 404, TEXT_TYPE, 'cors-dev-proxy: the inspector is off (inspector: false)\n', COMMON)
}

/** The inspector's page, script, exchanges, events, explanations, HAR, `/mock` and replay; `true` when answered. */
function servedInspector(
  ctx: EndpointsContext,
  req: ProxyRequest,
  res: ProxyResponse,
  call: InspectorCall,
  recorder: ExchangeRecorder,
): boolean {
  const { path, read, method } = call
  // The page at both, not a redirect from one to the other: Next strips the trailing slash with
  // a 308 before proxy.ts runs, and a redirect back would loop. Its links are absolute.
  if (read && (path === '/' || path === '')) {
    sendText(res, 200, 'text/html; charset=utf-8', inspectorPage(), [
      ...COMMON,
      [
        'content-security-policy',
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
      ],
    ])
    return true
  }
  if (read && path === '/inspector.js') {
    sendText(res, 200, 'text/javascript; charset=utf-8', ctx.options.scripts.inspector, COMMON)
    return true
  }
  if (path === '/mock') {
    const ring = recorder.ring
    if (serveMock(req, res, ctx.options.mocks ?? NO_MOCKS, (id) => ring.get(id), sendJson)) return true
  }
  if (read && path === '/exchanges') {
    sendJson(res, 200, recorder.ring.list().map(viewExchange))
    return true
  }
  if (method === 'GET' && path === '/events') {
    serveEvents(ctx, req, res, recorder.ring)
    return true
  }
  return servedExport(ctx, res, call, recorder)
}

/** The recent explanations, the HAR export and replay; `true` when answered. */
function servedExport(
  ctx: EndpointsContext,
  res: ProxyResponse,
  call: InspectorCall,
  recorder: ExchangeRecorder,
): boolean {
  const { path, read, method } = call
  if (read && path === '/explanations') {
    const list = maskUrlsIn(JSON.stringify(ctx.options.overlay ? ctx.explainer.recent() : []))
    sendText(res, 200, JSON_TYPE, `${list}\n`, COMMON)
    return true
  }
  if (read && path === '/har') {
    const download = call.url.includes('download')
      ? [['content-disposition', 'attachment; filename="cors-dev-proxy.har"'] as const]
      : []
    sendJson(res, 200, harOf(recorder.ring.list(), CREATOR), download)
    return true
  }
  const replayed = /^\/replay\/(\d{1,12})$/.exec(path)
  if (method === 'POST' && replayed !== null) {
    void replay(ctx, res, Number(replayed[1]))
    return true
  }
  return false
}

/** `/events`: every new exchange as a server-sent event, with a heartbeat, until the client goes. */
function serveEvents(
  ctx: EndpointsContext,
  req: ProxyRequest,
  response: ProxyResponse,
  ring: ExchangeRecorder['ring'],
): void {
  // Both response kinds write strings alike; their overloads differ only in callbacks.
  const res = response as ProxyResponse & { write(chunk: string): boolean }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(req.httpVersionMajor === 1 ? { connection: 'keep-alive' } : {}),
  })
  res.write(': cors-dev-proxy inspector\n\n')
  let dropped = 0
  const unsubscribe = ring.subscribe((record: ExchangeRecord) => {
    // An inspector that does not read (a background tab, a stalled client) must not make the
    // dev server buffer without bound: past STREAM_BACKLOG bytes, events are dropped and counted.
    if (((res as { writableLength?: number }).writableLength ?? 0) > STREAM_BACKLOG) {
      dropped += 1
      return
    }
    if (dropped > 0) {
      res.write(`event: dropped\ndata: ${dropped}\n\n`)
      dropped = 0
    }
    res.write(`event: exchange\ndata: ${JSON.stringify(viewExchange(record))}\n\n`)
  })
  // A comment now and then keeps idle-closing proxies and browsers from dropping the stream.
  const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000)
  heartbeat.unref()
  ctx.streams.add(res)
  res.once('close', () => {
    clearInterval(heartbeat)
    unsubscribe()
    ctx.streams.delete(res)
  })
}

/** `POST /explain`: the overlay's failed call, explained (429 while too many are in flight). */
async function explain(ctx: EndpointsContext, req: ProxyRequest, res: ProxyResponse): Promise<void> {
  const call = failedCallOf(await readJsonBody(req, EXPLAIN_LIMIT))
  if (call === undefined) {
    sendJson(res, 400, {
      error: 'expected { url, method, headers, credentials, initiator } with an http(s) or ws(s) URL',
    })
    return
  }
  const origin = requestedOrigin(req) ?? 'http://localhost'
  const referer = req.headers.referer
  const pageUrl = typeof referer === 'string' && referer.startsWith(`${origin}/`) ? referer : undefined
  const answer = await ctx.explainer.explain(call, { origin, ...(pageUrl === undefined ? {} : { pageUrl }) })
  if (answer === 'busy') {
    sendJson(res, 429, { error: 'too many explanations at once' }, [['retry-after', '1']])
    return
  }
  sendJson(res, 200, answer)
}

/** `POST /replay/<id>`: the recorded exchange sent again through the dev server. */
async function replay(ctx: EndpointsContext, res: ProxyResponse, id: number): Promise<void> {
  const { recorder } = ctx.options
  const record = recorder?.ring.get(id)
  if (recorder === undefined || record === undefined) {
    sendJson(res, 404, {
      error: `no exchange ${id} (the inspector keeps the last ${ctx.options.inspector?.exchanges ?? 0})`,
    })
    return
  }
  try {
    const status = await ctx.replayer.replay(record, recorder.replayToken(id))
    sendJson(res, 200, { replayOf: id, status })
  } catch (error) {
    sendJson(res, 409, {
      error: `cannot replay exchange ${id}: ${error instanceof Error ? error.message : String(error)}`,
    })
  }
}
