/*
 * The Fetch front end's WebSockets: a `Request` carries no socket, so the runtime upgrades it
 * with its own API and hands the accepted socket to a bridge (fetch/websocket-bridge.ts). This
 * file decides, as the Node front end's upgrade listener does, whether a `ws` route takes the
 * request, whether its `cors` admits the page's origin, and where the target's socket is: the
 * request prepared as on Node (forward/prepare-request.ts: router, `pathRewrite`, `headers`,
 * `changeOrigin`, `xfwd`), the handshake's own fields left to the runtime's client.
 */
import { WebSocket as UndiciWebSocket } from 'undici'
import { routeOption } from '../config/option-path.js'
import type { ResolvedForwardRoute, ResolvedRoute } from '../config/resolved-route.js'
import { createUpgradeOriginCheck, type UpgradeOriginCheck } from '../cors/upgrade-origin.js'
import type { FetchConnectionInfo } from '../fetch/fetch-request.js'
import { FetchRequest } from '../fetch/fetch-request.js'
import {
  createWebSocketBridge,
  type FetchWebSocketBridge,
  type WebSocketClient,
} from '../fetch/websocket-bridge.js'
import { bridgeHeaders } from '../forward/handshake-headers.js'
import { createRequestPreparer, type PreparedRequest, prepareRequest } from '../forward/prepare-request.js'
import { targetLabel } from '../forward/proxy-error.js'
import { webSocketOrigin } from '../forward/upgrade-sockets.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { PathRewriteFailure } from '../http/rewrite-path.js'
import type { Logger } from '../log/logger.js'
import type { RequestMatcher } from '../pipeline/match-route.js'
import type { FetchHandshake } from '../stand-ins/stand-in.js'
import type { BuiltRoutePipeline } from './create-route-pipeline.js'
import { logOriginRefusal } from './proxy-upgrade.js'

/** What `FetchHandler.webSocket` resolves: the bridge, our own refusal, or `undefined` (not a `ws` route's upgrade). */
export type FetchWebSocketAnswer = FetchWebSocketBridge | Response | undefined

/** The runtime's own client (Bun, Deno, Node 22+), else undici's (Node 20, whose global is behind a flag). */
const Client = (globalThis.WebSocket ?? UndiciWebSocket) as unknown as WebSocketClient

/** A short text answer of ours instead of an upgrade. */
function refusal(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } })
}

/**
 * The `webSocket` member of a Fetch handler: resolves a bridge for an upgrade a forwarding `ws`
 * route takes, a 403 when the route's `cors` does not admit the page's origin, a 501 for a
 * mock route's echo (served on Node only), and `undefined` for any other request. The route's
 * stand-ins see the handshake first (`upgradeOf`, see `BackendStep.fetchUpgrade`): with control
 * options, its faults delay or refuse it, as on Node, and it is bridged to the target in use.
 *
 * @example
 * const webSocket = createFetchWebSocket(resolved.routes, engine.matchOf, engine.logger)
 * const bridge = await webSocket(request)
 */
export function createFetchWebSocket(
  routes: readonly ResolvedRoute[],
  matchOf: RequestMatcher,
  logger: Logger,
  upgradeOf: (route: ResolvedRoute) => BuiltRoutePipeline['fetchUpgrade'] | undefined = () => undefined,
) {
  const checks = new Map<ResolvedRoute, UpgradeOriginCheck>()
  for (const route of routes)
    if (route.ws && route.cors) checks.set(route, createUpgradeOriginCheck(route.cors))

  return async function corsDevProxyWebSocket(
    request: Request,
    info?: FetchConnectionInfo,
  ): Promise<FetchWebSocketAnswer> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return undefined
    const req = new FetchRequest(request, info)
    const match = matchOf.withoutMemo(req)
    if (match === undefined || !match.route.ws) return undefined
    const { route, path } = match
    if (route.kind !== 'forward') {
      return refusal(
        501,
        `the mock's WebSocket echo on ${route.prefix} is served by createCorsDevProxy on Node only`,
      )
    }
    const check = checks.get(route)
    if (check !== undefined && !(await check(req as never))) {
      const origin = String(request.headers.get('origin'))
      logOriginRefusal(logger, route, req.url, origin)
      return refusal(403, `Forbidden: the origin ${origin} may not open WebSockets on ${route.prefix}`)
    }
    const handshake: FetchHandshake = { req, path, route }
    // Only a forwarding route gets here, so its stand-ins hand on a forwarding route.
    const toTarget = (onward: FetchHandshake) =>
      bridgeTo(onward.route as ResolvedForwardRoute, req, path, logger)
    const upgrade = upgradeOf(route)
    return upgrade === undefined ? toTarget(handshake) : upgrade(handshake, toTarget)
  }
}

/**
 * The bridge to the target's socket, the request prepared as for any forwarded request (router,
 * `pathRewrite`, headers: see `prepareRequest`), or a 502 naming the route when its router or
 * `pathRewrite` fails: nothing is forwarded then.
 */
async function bridgeTo(
  route: ResolvedForwardRoute,
  request: FetchRequest,
  path: string,
  logger: Logger,
): Promise<FetchWebSocketAnswer> {
  const req = request as unknown as ProxyRequest
  let prepared: PreparedRequest
  try {
    prepared = await prepareRequest(
      createRequestPreparer(route, logger.warn, bridgeHeaders),
      req,
      undefined,
      path,
    )
  } catch (error) {
    // As on Node (see `Handshake`): one line per failing option, never keyed by its message.
    const failed = error instanceof PathRewriteFailure ? 'pathRewrite' : 'router'
    logger.limited(
      'error',
      `${routeOption(route.prefix, failed)} threw (upgrade)`,
      () =>
        `502 ${req.method} ${req.url} → ${targetLabel(route.target)}: ${error instanceof Error ? error.message : String(error)} (WebSocket handshake)`,
    )
    return refusal(502, `Bad Gateway: the ${failed} of route '${route.prefix}' failed`)
  }
  // `bridgeHeaders` gave one string per name.
  const headers = prepared.headers as Record<string, string>
  return createWebSocketBridge(webSocketOrigin(prepared.target) + prepared.path, headers, Client)
}
