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
import { CLIENT_SCRIPTS } from '../inspector/client-scripts.js'
import { createInspectorEndpoints } from '../inspector/inspector-endpoints.js'
import { isInspectorPath } from '../inspector/inspector-guard.js'
import { createExchangeRecorder, type ExchangeRecorder } from '../inspector/record-exchange.js'
import type { Logger } from '../log/logger.js'

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

/**
 * Creates the recorder and the endpoints under `/__cors-dev-proxy/` for a Fetch handler, as the
 * resolved `inspector` and `overlay` options ask: `undefined` when both are off.
 *
 * @example
 * const inspector = createFetchInspector(resolved, logger)
 * const engine = buildCorsDevProxy(resolved, logger, inspector?.recorder)
 * if (inspector?.claims(req.url)) inspector.handle(req, res)
 */
export function createFetchInspector(
  resolved: ResolvedCorsDevProxyOptions,
  logger: Logger,
): FetchInspector | undefined {
  if (resolved.inspector === undefined && !resolved.overlay) return undefined
  const recorder = resolved.inspector === undefined ? undefined : createExchangeRecorder(resolved.inspector)
  const endpoints = createInspectorEndpoints({
    recorder,
    inspector: resolved.inspector,
    overlay: resolved.overlay,
    routes: resolved.routes,
    logger,
    ownUrl: publishedServerUrl,
    scripts: CLIENT_SCRIPTS,
  })
  return {
    recorder,
    claims: isInspectorPath,
    handle: endpoints.handle,
    close: endpoints.close,
  }
}
