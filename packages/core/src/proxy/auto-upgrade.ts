import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

type Middleware = (req: ProxyRequest, res: ProxyResponse, next?: NextFunction) => void
type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean

/**
 * The server a request arrived on, as Node sets it on the socket (`net.Server` connections).
 *
 * @example
 * serverOf(req) // the http.Server whose 'request' event brought req
 */
export function serverOf(req: ProxyRequest): Server | undefined {
  const server = (req.socket as { server?: unknown } | undefined)?.server
  return server !== null && typeof server === 'object' && typeof (server as Server).on === 'function'
    ? (server as Server)
    : undefined
}

/**
 * http-proxy-middleware's WebSocket wiring for a middleware mounted with `app.use` alone
 * (`http-proxy-middleware.ts`, `catchUpgradeRequest`: with `ws: true`, the first request it sees
 * gives `req.socket.server`, whose `'upgrade'` event it subscribes to once per server). Here the
 * same, for a proxy with `ws` routes: the returned middleware subscribes `upgrade` to each server
 * it sees a request from, once. An upgrade before any HTTP request is not seen (hpm's README says
 * the same, "External WebSocket upgrade").
 *
 * Never handled twice: the returned `upgrade` remembers the handshakes it took, so when the user
 * also wired `server.on('upgrade', proxy.upgrade)` (hpm's `middleware.upgrade` pattern) or an
 * adapter did, whichever listener runs second sees the request taken and answers `true` without
 * touching the socket. The cost per request is one identity comparison with the last server seen.
 *
 * @example
 * const { middleware, upgrade } = subscribeUpgradeOnFirstRequest(engine.middleware, engine.upgrade)
 * app.use(middleware) // ws routes work with no server.on('upgrade', ...)
 */
export function subscribeUpgradeOnFirstRequest(
  middleware: Middleware,
  upgrade: UpgradeHandler,
): { middleware: Middleware; upgrade: UpgradeHandler } {
  const taken = new WeakSet<IncomingMessage>()
  const subscribed = new WeakSet<Server>()
  let lastServer: Server | undefined

  function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (taken.has(req)) return true
    const took = upgrade(req, socket, head)
    if (took) taken.add(req)
    return took
  }

  /**
   * The listener added to a server: the dev server's own upgrades (HMR) are left to its other
   * listeners; when there is none, Node would leave the socket open for good, so it is closed.
   */
  function listenerFor(server: Server) {
    return function corsDevProxyUpgradeListener(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      if (!corsDevProxyUpgrade(req, socket, head) && server.listenerCount('upgrade') === 1) socket.destroy()
    }
  }

  function corsDevProxySubscribingMiddleware(
    req: ProxyRequest,
    res: ProxyResponse,
    next?: NextFunction,
  ): void {
    const server = serverOf(req)
    if (server !== lastServer && server !== undefined) {
      lastServer = server
      if (!subscribed.has(server)) {
        subscribed.add(server)
        server.on('upgrade', listenerFor(server))
      }
    }
    middleware(req, res, next)
  }

  return { middleware: corsDevProxySubscribingMiddleware, upgrade: corsDevProxyUpgrade }
}
