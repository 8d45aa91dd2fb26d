import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { routeOption } from '../config/option-path.js'
import { joinTargetPath } from '../config/path-rewrite.js'
import { copyRouteOptions, headersForRequest } from '../config/request-options.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { HookFailure, type OutgoingParts, outgoingRequest, runRequestHooks } from './hook-runner.js'
import { Handshake, type UpgradeDeps } from './websocket-handshake.js'

/**
 * A router, an async `pathRewrite` and the `proxyReqWs` hooks, in http-proxy-middleware's
 * order: the handshake's path and headers for the target.
 */
async function routeAndRewrite(handshake: Handshake, path: string): Promise<OutgoingParts> {
  const { req, route, socket, head, deps } = handshake
  // As for HTTP requests, a router gets a copy of the options of its own (see copyRouteOptions).
  const options = route.router === undefined ? undefined : copyRouteOptions(route.source)
  let chosen: URL | undefined
  try {
    chosen = route.router === undefined ? undefined : await route.router(req, undefined, options)
  } catch (error) {
    // A router that throws is named, as for HTTP requests.
    if (error instanceof RouterAnswerError) throw error
    throw new HookFailure(routeOption(route.prefix, 'router'), error)
  }
  if (chosen !== undefined) handshake.routeTo(chosen)
  const { target } = handshake
  const rewritten = await route.rewritePath(path, req, deps.logger.warn, undefined, options)
  const headers =
    options === undefined
      ? route.headers
      : headersForRequest(route.headers, route.source, options, routeOption(route.prefix, 'router'))
  const routed = target === route.target && headers === route.headers ? route : { ...route, target, headers }
  const parts: OutgoingParts = {
    path: joinTargetPath(target, rewritten),
    headers: handshake.headersFor(routed),
  }
  await runRequestHooks(
    route.hooks.proxyReqWs,
    [outgoingRequest(req.method ?? 'GET', target, parts), req, socket, head],
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
  // The common case (no router, no hook, a synchronous rewrite) opens the connection at once;
  // the per-request options run in http-proxy-middleware's order otherwise.
  if (route.router !== undefined || route.hooks.proxyReqWs.length > 0) {
    routeAndRewrite(handshake, path).then(handshake.open, handshake.fail)
    return
  }
  let rewritten: string | Promise<string>
  try {
    rewritten = route.rewritePath(path, req, deps.logger.warn)
  } catch (error) {
    void handshake.fail(error)
    return
  }
  const send = (upstreamPath: string) =>
    handshake.open({ path: joinTargetPath(route.target, upstreamPath), headers: handshake.headersFor(route) })
  if (typeof rewritten === 'string') send(rewritten)
  else rewritten.then(send, handshake.fail)
}
