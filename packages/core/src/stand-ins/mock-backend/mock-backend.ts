import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { isCorsPreflight } from '../../cors/cors-decision.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { sendJsonp, sendJsonpMethodNotAllowed } from '../../jsonp/jsonp-response.js'
import { answerCookieRequest } from './mock-cookies.js'
import { answerMockPreflight, applyMockCorsHeaders, applyMockExtraHeaders } from './mock-cors.js'
import { buildEcho, readRequestBody } from './mock-echo.js'
import { createMockEventStreams } from './mock-events.js'
import { closeAfterResponse, type MockResponse, parseRequestTarget, sendJson } from './mock-http.js'
import { createMockLog, type MockRequestLog } from './mock-log.js'
import { answerRedirect } from './mock-redirect.js'
import { type MockSwitches, parseMockSwitches } from './mock-switches.js'
import { createMockWebSocketEcho, MOCK_WEBSOCKET_PATH } from './mock-websocket.js'
import type { MockBackendOptions } from './options/echo-backend-options.js'
import {
  type ResolvedMockBackendOptions,
  resolveMockBackendOptions,
} from './options/resolve-echo-backend-options.js'

/**
 * The mock backend: a connect-style middleware plus its WebSocket upgrade handler.
 * It answers every request itself (the echo serves any path), so `next` is never called.
 */
export interface MockBackend {
  (req: ProxyRequest, res: MockResponse, next?: (err?: unknown) => void): void
  /**
   * Answers a request as if its target were `target` (path and query): what a proxy route
   * uses after rewriting the path, without touching `req.url`.
   */
  handle(req: ProxyRequest, res: MockResponse, target: string): void
  /**
   * Takes a WebSocket upgrade for `/ws` (returns `true`), or leaves it alone (returns `false`).
   * `target` overrides `req.url` as the path the mock sees.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target?: string): boolean
  /** Requests received, oldest first (the last `logLimit`); the same array for the backend's life. */
  readonly log: MockRequestLog[]
  /** The resolved options. */
  readonly options: ResolvedMockBackendOptions
  /** Ends open event streams, WebSocket connections and delayed answers (503). */
  close(): Promise<void>
}

/**
 * Creates the mock backend. Paths: `/cookie` (set and read cookies), `/events` (server-sent
 * events), `/ws` (WebSocket echo); every other path echoes the request as JSON, or as JSONP on
 * a GET with a `callback` parameter (another method with it is answered 405). `?redirect=` on
 * any path answers a redirect instead. Query switches
 * (`?cors=`, `?status=`, `?delay=`, ...; see {@link MockSwitches}) choose the behaviour per
 * request. Preflights are answered according to the CORS mode. A mistake in `options` throws
 * `CorsDevProxyError` naming `mock.<option>`.
 *
 * @example
 * const mock = createMockBackend({ cors: 'reflect' })
 * const server = http.createServer(mock)
 * server.on('upgrade', (req, socket, head) => mock.upgrade(req, socket, head) || socket.destroy())
 */
export function createMockBackend(options?: MockBackendOptions): MockBackend {
  return buildMockBackend(resolveMockBackendOptions(options))
}

/**
 * The mock backend of options already resolved (a `mock` route's, resolved with the rest of
 * the configuration): what {@link createMockBackend} returns, without validating again.
 *
 * @example
 * buildMockBackend(route.mock)
 */
export function buildMockBackend(resolved: ResolvedMockBackendOptions): MockBackend {
  const ctx: MockContext = {
    resolved,
    log: createMockLog(resolved.logLimit),
    events: createMockEventStreams(),
    webSocket: createMockWebSocketEcho({ maxPayload: Math.max(resolved.bodyLimit, 1) }),
    delayed: new Map(),
  }

  function handle(req: ProxyRequest, res: MockResponse, target: string): void {
    handleMockRequest(ctx, req, res, target)
  }

  const mockBackend = function mockBackend(req: ProxyRequest, res: MockResponse): void {
    handle(req, res, req.url ?? '/')
  }

  return Object.assign(mockBackend, {
    handle,
    upgrade: ctx.webSocket.upgrade,
    log: ctx.log.entries,
    options: resolved,
    async close() {
      for (const [timer, res] of ctx.delayed) {
        clearTimeout(timer)
        sendJson(res, 503, { error: 'the mock backend is closing' })
      }
      ctx.delayed.clear()
      ctx.events.closeAll()
      await ctx.webSocket.close()
    },
  })
}

/** One mock backend's parts, built once and shared by its requests. */
interface MockContext {
  readonly resolved: ResolvedMockBackendOptions
  readonly log: ReturnType<typeof createMockLog>
  readonly events: ReturnType<typeof createMockEventStreams>
  readonly webSocket: ReturnType<typeof createMockWebSocketEcho>
  /** Answers waiting for their `delay`, answered 503 on `close`. */
  readonly delayed: Map<NodeJS.Timeout, MockResponse>
}

/** One request: logged, its switches read, its preflight or CORS headers set, then answered (after its `delay`). */
function handleMockRequest(ctx: MockContext, req: ProxyRequest, res: MockResponse, target: string): void {
  const { resolved } = ctx
  // Any other OPTIONS is an ordinary request and is echoed (Fetch standard §4.8).
  const preflight = isCorsPreflight(req)
  ctx.log.record(req, res, target, preflight)
  const url = parseRequestTarget(target)
  if (url === undefined) {
    sendJson(res, 400, { error: 'the mock backend serves paths only (origin-form request targets)' })
    return
  }
  const parsed = parseMockSwitches(url.searchParams)
  if (!parsed.ok) {
    // The backend's default mode still applies, so a script can read why its URL was refused.
    applyMockCorsHeaders(req, res, resolved.cors, undefined, resolved)
    sendJson(res, 400, parsed.error)
    return
  }
  const switches = parsed.switches
  const mode = switches.cors ?? resolved.cors
  if (preflight) {
    answerMockPreflight(req, res, mode, switches, resolved)
    return
  }
  applyMockCorsHeaders(req, res, mode, switches, resolved)
  applyMockExtraHeaders(res, switches)
  if (switches.delay === 0) {
    dispatch(ctx, req, res, url, switches)
    return
  }
  const timer = setTimeout(() => {
    ctx.delayed.delete(timer)
    dispatch(ctx, req, res, url, switches)
  }, switches.delay)
  ctx.delayed.set(timer, res)
  res.on('close', () => {
    clearTimeout(timer)
    ctx.delayed.delete(timer)
  })
}

/** The answer by path: a redirect, `/cookie`, `/events`, the WebSocket path, JSONP, else the echo. */
function dispatch(
  ctx: MockContext,
  req: ProxyRequest,
  res: MockResponse,
  url: URL,
  switches: MockSwitches,
): void {
  const { resolved } = ctx
  const callback = url.searchParams.get(resolved.jsonpParam)
  if (switches.redirect !== undefined) {
    answerRedirect(req, res, switches.redirect, switches.status)
  } else if (url.pathname === '/cookie') {
    answerCookieRequest(req, res, url, switches.status)
  } else if (url.pathname === '/events') {
    ctx.events.answer(res, url)
  } else if (url.pathname === MOCK_WEBSOCKET_PATH) {
    // RFC 9110 §15.5.22 asks 426 to name the protocol in Upgrade; HTTP/2 forbids that header (RFC 9113 §8.2.2).
    if (req.httpVersionMajor === 1) res.setHeader('upgrade', 'websocket')
    sendJson(res, 426, { error: 'this path is a WebSocket echo', example: "new WebSocket('ws://host/ws')" })
  } else if (callback !== null) {
    // JSONP is loaded by a <script> element, which only GETs: any other method
    // carrying the callback parameter is answered 405, as a route with `jsonp` does.
    if (req.method !== 'GET') {
      sendJsonpMethodNotAllowed(res, resolved.jsonpParam)
      return
    }
    // A bad callback name is answered 400 JSON by sendJsonp, never written into the script.
    sendJsonp(res, callback, buildEcho(req, url, Buffer.alloc(0)), {
      status: switches.status,
      param: resolved.jsonpParam,
    })
  } else {
    void answerEcho(ctx, req, res, url, switches.status)
  }
}

/** The echo of the request, its body read up to `bodyLimit` (413 beyond). */
async function answerEcho(
  ctx: MockContext,
  req: ProxyRequest,
  res: MockResponse,
  url: URL,
  status: number | undefined,
): Promise<void> {
  const { bodyLimit } = ctx.resolved
  const result = await readRequestBody(req, bodyLimit)
  if (!result.ok) {
    if (result.reason === 'aborted') return
    closeAfterResponse(req, res)
    sendJson(res, 413, { error: `the mock backend reads bodies up to ${bodyLimit} bytes` })
    return
  }
  sendJson(res, status ?? 200, buildEcho(req, url, result.bytes))
}
