import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { handshakeHeaders } from './handshake-headers.js'
import { type OutgoingParts, outgoingRequest, runRequestHooks } from './hook-runner.js'
import {
  createRequestPreparer,
  type PreparedRequest,
  prepareRequest,
  type RequestPreparer,
  rewriteRequest,
  routeRequest,
} from './prepare-request.js'
import { Handshake, type UpgradeDeps } from './websocket-handshake.js'

/**
 * The preparation awaited (a router, an async `pathRewrite`), then the `proxyReqWs` hooks, in
 * http-proxy-middleware's order: the handshake's path and headers for the target.
 */
async function routeAndRewrite(
  handshake: Handshake,
  preparer: RequestPreparer,
  path: string,
): Promise<OutgoingParts> {
  const { req, route, socket, head } = handshake
  const routing = await routeRequest(preparer, req, undefined)
  // Failures from here on name the target the router chose.
  if (route.router !== undefined) handshake.routeTo(routing.target)
  const parts = await rewriteRequest(preparer, req, undefined, path, routing)
  await runRequestHooks(
    route.hooks.proxyReqWs,
    [outgoingRequest(req.method ?? 'GET', routing.target, parts), req, socket, head],
    parts,
  )
  return parts
}

/**
 * Forwards a WebSocket handshake to the route's target (`ws:`/`http:` over TCP, `wss:`/`https:`
 * over TLS, honouring `secure`, `changeOrigin`, `xfwd`, `headers` and `pathRewrite` like HTTP
 * requests) with `node:http`'s upgrade support, since undici's pool does not hand over a raw
 * socket for a protocol switch.
 *
 * - 101: the upstream's response head is relayed, then both sockets are piped (see `join`).
 * - Any other status (401, 404...): relayed to the client as an HTTP response, then closed.
 * - An error before anything was written (refused connection, TLS, timeout): an HTTP error
 *   response with status and short body, like HTTP requests get; afterwards: the socket is
 *   destroyed.
 *
 * @example
 * server.on('upgrade', (req, socket, head) => forwardUpgrade(req, socket, head, route, req.url, deps))
 */
export function forwardUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  route: ResolvedForwardRoute,
  path: string,
  deps: UpgradeDeps,
): void {
  const { sockets } = deps
  const handshake = new Handshake(req, socket, head, route, deps)
  sockets.add(socket)
  socket.once('close', () => sockets.delete(socket))
  const preparer = createRequestPreparer(route, deps.logger.warn, handshakeHeaders)
  // The common case (no router, no hook, a synchronous rewrite) opens the connection at once;
  // the per-request options run in http-proxy-middleware's order otherwise.
  if (route.router !== undefined || route.hooks.proxyReqWs.length > 0) {
    routeAndRewrite(handshake, preparer, path).then(handshake.open, handshake.fail)
    return
  }
  let prepared: PreparedRequest | Promise<PreparedRequest>
  try {
    prepared = prepareRequest(preparer, req, undefined, path)
  } catch (error) {
    void handshake.fail(error)
    return
  }
  if (prepared instanceof Promise) prepared.then(handshake.open, handshake.fail)
  else handshake.open(prepared)
}
