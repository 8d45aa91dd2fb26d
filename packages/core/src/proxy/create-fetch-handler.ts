/*
 * The Fetch front end: the same engine as `createCorsDevProxy`, behind a
 * `(request: Request) => Promise<Response | undefined>` for Bun, Deno, Hono and the other
 * Web-standard servers. It decides nothing itself: each `Request` is dressed as the
 * `IncomingMessage` the engine reads (fetch/fetch-request.ts) and the engine answers into a
 * `ServerResponse` look-alike that becomes the `Response` (fetch/fetch-response.ts), so
 * matching, CORS, mocks, JSONP, rewriting, failures and log lines are the Node front end's own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CorsDevProxyConfig } from '../config/define-config.js'
import type { CorsDevProxyOptions, Routes } from '../config/options.js'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import { createFetchDispatcher, undiciDispatches } from '../fetch/fetch-dispatcher.js'
import type { FetchConnectionInfo } from '../fetch/fetch-request.js'
import { FetchRequest, type NodeOutgoing, nodeRequestOf, onClientLeaving } from '../fetch/fetch-request.js'
import { FetchResponse } from '../fetch/fetch-response.js'
import { refuseNodeOptions } from '../fetch/refuse-node-options.js'
import type { UpstreamPoolOptions } from '../forward/upstream-pool.js'
import { SERVER_URL_VARIABLE } from '../http/server-fetch.js'
import type { WebSocketCarrier } from '../inspector/explain-websocket.js'
import { assembleProxy } from './assemble-proxy.js'
import { type EngineProxy, logStepError } from './create-cors-dev-proxy.js'
import { createFetchWebSocket, type FetchWebSocketAnswer } from './fetch-websocket.js'
import { resolveProxyOptions } from './resolve-proxy-options.js'

export type { FetchConnectionInfo, NodeIncoming, NodeOutgoing } from '../fetch/fetch-request.js'
export type { FetchWebSocketBridge, WebSocketPeer } from '../fetch/websocket-bridge.js'
export type { FetchWebSocketAnswer } from './fetch-websocket.js'

/** The options of {@link createFetchHandler}: those of `createCorsDevProxy`. */
export type FetchHandlerOptions = CorsDevProxyOptions

/** A Web-standard request handler with the proxy's routes, and `close`. */
export interface FetchHandler {
  /**
   * Answers a request one of the routes takes; `undefined` when none does, for the runtime's
   * next handler. Never rejects: a failure is an answer (502, 504, 500).
   */
  (request: Request, info?: FetchConnectionInfo): Promise<Response | undefined>
  /** Closes the upstream pools and the mock backends, and prints pending log summaries. */
  close(): Promise<void>
  /**
   * For a WebSocket upgrade a `ws` route takes: the bridge to the target's socket, which the
   * runtime's socket handlers feed once the runtime accepted the upgrade (Bun's
   * `server.upgrade`, `Deno.upgradeWebSocket`, @hono/node-ws's `upgradeWebSocket`); a
   * `Response` (403, 501) to answer instead; `undefined` for any other request.
   */
  webSocket(request: Request, info?: FetchConnectionInfo): Promise<FetchWebSocketAnswer>
  /** The resolved routes, longest prefix first. */
  readonly routes: readonly ResolvedRoute[]
}

/**
 * Where a replay goes: the dev server in front of the handler, as published for `serverFetch`
 * (`withCorsDevProxy` under `next dev`, or set by hand).
 */
function publishedServerUrl(): string | undefined {
  const url = process.env[SERVER_URL_VARIABLE]
  return url === undefined || url === '' ? undefined : url
}

/** A step handed the request on with an error (a throwing `cors.origin` function): 500, logged as on Node. */
function answerStepError(engine: EngineProxy, req: IncomingMessage, error: unknown): Response {
  const match = engine.matchOf.withoutMemo(req)
  if (match !== undefined) logStepError(engine.logger, req, match.route, error)
  return new Response('Internal Server Error\n', {
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  })
}

/**
 * Creates a Web-standard handler for the routes: validated and resolved once (a mistake throws
 * `CorsDevProxyError` here), with the same routes, CORS policy, mocks, JSONP, rewriting and
 * answers as `createCorsDevProxy`. Options only a Node server can honour are refused here by
 * name, with what to use instead: `on.proxyReq`, `configure` and `agent`. A `ws` route's upgrades
 * go through `webSocket` and the runtime's own upgrade API. The
 * `router`, `pathRewrite`, `on.proxyRes`, `on.error` and `transformResponse` functions receive
 * the engine's Node-shaped view of the request and response, not the `Request` itself.
 *
 * @example
 * const proxy = createFetchHandler({ '/api': { target: 'http://localhost:3000', cors: true } })
 * Bun.serve({ fetch: async (request) => (await proxy(request)) ?? new Response('Not Found', { status: 404 }) })
 */
export function createFetchHandler(
  routes: Routes | CorsDevProxyConfig,
  options?: FetchHandlerOptions,
): FetchHandler {
  return createFetchHandlerFor(routes, options, {})
}

/** What an adapter built on the Fetch handler tells it about the host it runs in. */
export interface FetchHost {
  /**
   * How the host carries a `ws` route's upgrades, for the overlay's fix of a failed WebSocket:
   * `{ none: { why, where } }` where the host hands the handler none (Next's `proxy.ts`).
   * @default 'bridge' (the runtime's upgrades handed to `webSocket(request)`)
   */
  readonly webSockets?: WebSocketCarrier
  /**
   * Where a relative `recordings.dir` and the routes' mock folders go (a test runner's project folder).
   * @default the working directory
   */
  readonly root?: string
}

/**
 * `createFetchHandler` for an adapter that knows its host (`@cors-dev-proxy/core/adapter`): the
 * same handler, whose explanations fit what the host can carry.
 *
 * @example
 * createFetchHandlerFor(routes, options, { webSockets: { none: { why: "proxy.ts sees no upgrade", where: 'add it to server.mjs' } } })
 */
export function createFetchHandlerFor(
  routes: Routes | CorsDevProxyConfig,
  options: FetchHandlerOptions | undefined,
  host: FetchHost,
): FetchHandler {
  const resolved = resolveProxyOptions(routes, options)
  refuseNodeOptions(resolved.routes)
  // Bun's built-in undici has no dispatch() on its pools: forward with the runtime's fetch there.
  return fetchHandlerOf(resolved, undiciDispatches() ? {} : { dispatcherFor: createFetchDispatcher }, host)
}

/**
 * The handler of options already resolved and checked, forwarding through `poolOptions`'s
 * dispatchers: `createFetchHandler`'s second half, apart so a test can force the `fetch`
 * forwarding a runtime without undici's `dispatch()` gets.
 *
 * @example
 * fetchHandlerOf(resolveOptions(routes), { dispatcherFor: createFetchDispatcher })
 */
export function fetchHandlerOf(
  resolved: ResolvedCorsDevProxyOptions,
  poolOptions: UpstreamPoolOptions,
  host: FetchHost = {},
): FetchHandler {
  // The overlay's script, the inspector and its live switches under /__cors-dev-proxy/, as on
  // every front end; replays go to the dev server in front of the handler, as published for
  // `serverFetch` (a `Request` names the host the client asked for, which must not decide where
  // the server sends requests of its own).
  const proxy = assembleProxy(resolved, {
    poolOptions,
    ownUrl: publishedServerUrl,
    webSockets: host.webSockets ?? 'bridge',
    root: host.root,
  })
  const { engine, logger } = proxy
  // The routes line, once, as the dev servers print it when they listen: a Fetch handler has no
  // server to wait for, and is made once per server (Bun.serve, Deno.serve, Hono, proxy.ts).
  proxy.announce()
  const close = (): Promise<void> => proxy.close()

  function corsDevProxyFetch(request: Request, info?: FetchConnectionInfo): Promise<Response | undefined> {
    const res = new FetchResponse(request.method)
    // Behind @hono/node-server, the `node:http` request itself while nothing has touched the
    // `Request` made from it; else a look-alike of the `Request`. When the client leaves, its
    // answer is gone too, as a closed socket's is (the forwarder aborts upstream).
    const node = nodeRequestOf(request, info)
    // The engine's types are Node's; the shims carry every member it reads (see their files).
    let req: IncomingMessage
    if (node === undefined) req = new FetchRequest(request, info, res) as unknown as IncomingMessage
    else {
      req = node
      onClientLeaving(info?.outgoing as NodeOutgoing, () => {
        if (!res.writableEnded) res.destroy()
      })
    }
    // A `bypass` that names a path rewrites `req.url` for the dev server behind; here the request
    // goes back to the runtime as it came, so node:http's own request gets its URL back.
    const url = req.url
    const next = (error?: unknown): void => {
      req.url = url
      res.pass(error === undefined || error === null ? undefined : answerStepError(engine, req, error))
    }
    try {
      proxy.handle(req, res as unknown as ServerResponse, next)
    } catch (error) {
      // The handler never rejects: a runtime would answer its own 500 without our log line.
      next(error)
    }
    return res.response
  }

  const webSocket = createFetchWebSocket(resolved.routes, engine.matchOf, logger, engine.fetchUpgradeOf)
  return Object.assign(corsDevProxyFetch, { close, webSocket, routes: resolved.routes })
}
