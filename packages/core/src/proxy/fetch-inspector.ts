/*
 * The overlay's and the inspector's endpoints on the Fetch front end (Next's proxy.ts, Bun,
 * Deno, Hono): the recorder and the endpoints under `/__cors-dev-proxy/` that
 * `createDevServerProxy` serves on Node (inspector/), handed the Fetch front end's request and
 * response shims. Not a copy: the same guard (only the dev server's own pages), the same ring,
 * HAR, explain and replay.
 */
import type { ResolvedCorsDevProxyOptions } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { SERVER_URL_VARIABLE } from '../http/server-fetch.js'
import { clientScripts } from '../inspector/client-scripts.js'
import { responseHeaderLines } from '../inspector/exchange-ring.js'
import type { WebSocketCarrier } from '../inspector/explain-websocket.js'
import { createInspectorEndpoints } from '../inspector/inspector-endpoints.js'
import { isInspectorPath } from '../inspector/inspector-guard.js'
import { createExchangeRecorder, type ExchangeRecorder } from '../inspector/record-exchange.js'
import type { Logger } from '../log/logger.js'
import type { ControlBoard } from '../stand-ins/control/control-board.js'
import { createMockWriter } from '../stand-ins/route-mocks/mock-from-exchange.js'
import type { RouteMocks } from '../stand-ins/route-mocks/route-mocks.js'

/** The Fetch handler's share of the overlay and the inspector. */
export interface FetchInspector {
  /** The recorder the engine hands each exchange to, or `undefined` with `inspector: false`. */
  readonly recorder: ExchangeRecorder | undefined
  /** Whether a request target (`/__cors-dev-proxy/…`) is the endpoints'. */
  claims(url: string): boolean
  /** Answers a request under `/__cors-dev-proxy/`; never throws. */
  handle(req: ProxyRequest, res: ProxyResponse): void
  /** Ends the inspector's event streams. */
  close(): Promise<void>
}

/**
 * Where a replay goes: the dev server in front of the handler, as published for `serverFetch`
 * (`withCorsDevProxy` under `next dev`, or set by hand). A `Request` names the host the client
 * asked for, which must not decide where the server sends requests of its own.
 */
function publishedServerUrl(): string | undefined {
  const url = process.env[SERVER_URL_VARIABLE]
  return url === undefined || url === '' ? undefined : url
}

/** What the endpoints need of the engine: its live switches and its routes with `mocks`. */
export interface FetchInspectorEngine {
  readonly controls: ControlBoard
  readonly mocks: readonly RouteMocks[]
}

/**
 * Creates the endpoints under `/__cors-dev-proxy/` for a Fetch handler, with the recorder the
 * engine was built with, the engine's live switches (`controls`, for the inspector's `/control`
 * and the overlay's "faults on" badge) and its routes with `mocks` ("Mock this answer"):
 * `undefined` when the inspector, the overlay and every control option are off, as
 * `createDevServerProxy` decides on Node. `webSockets` is how the host carries upgrades, for the
 * overlay's fix of a failed WebSocket.
 *
 * @example
 * const recorder = createFetchRecorder(resolved)
 * const engine = buildCorsDevProxy(resolved, logger, recorder)
 * const inspector = createFetchInspector(resolved, logger, recorder, engine)
 * if (inspector?.claims(req.url)) inspector.handle(req, res)
 */
export function createFetchInspector(
  resolved: ResolvedCorsDevProxyOptions,
  logger: Logger,
  recorder: ExchangeRecorder | undefined,
  engine: FetchInspectorEngine,
  webSockets: WebSocketCarrier = 'bridge',
): FetchInspector | undefined {
  const { controls, mocks } = engine
  if (recorder === undefined && !resolved.overlay && controls.routes.length === 0) return undefined
  const endpoints = createInspectorEndpoints({
    recorder,
    inspector: resolved.inspector,
    overlay: resolved.overlay,
    routes: resolved.routes,
    logger,
    ownUrl: publishedServerUrl,
    scripts: clientScripts({ switches: controls.routes.length > 0 }),
    controls,
    mocks: mocks.length === 0 ? undefined : createMockWriter(mocks, logger, responseHeaderLines),
    webSockets,
  })
  return {
    recorder,
    claims: isInspectorPath,
    handle: endpoints.handle,
    close: endpoints.close,
  }
}

/**
 * The recorder a Fetch handler's engine hands each exchange to, as the resolved `inspector`
 * asks: `undefined` with `inspector: false`.
 *
 * @example
 * const engine = buildCorsDevProxy(resolved, logger, createFetchRecorder(resolved))
 */
export function createFetchRecorder(resolved: ResolvedCorsDevProxyOptions): ExchangeRecorder | undefined {
  return resolved.inspector === undefined ? undefined : createExchangeRecorder(resolved.inspector)
}
