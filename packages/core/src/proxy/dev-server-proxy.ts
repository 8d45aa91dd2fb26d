import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { loopbackUrl, publishServerUrl } from '../http/server-fetch.js'
import { OVERLAY_CLIENT_PATH } from '../inspector/client-scripts.js'
import type { Logger } from '../log/logger.js'
import { watchServerFetches } from '../log/server-fetch-hint.js'
import { refuseConnectOn } from '../pipeline/refuse-request.js'
import { assembleProxy, type ProxyHost } from './assemble-proxy.js'

/**
 * What an adapter tells the set-up about its dev server: what every front end may say
 * (`ProxyHost`: its log sink, its HMR socket, its Host check, its root), and its server.
 */
export interface DevServerHost
  extends Pick<ProxyHost, 'sink' | 'isOwnUpgrade' | 'isAllowedUpgrade' | 'root'> {
  /**
   * The dev server's HTTP server, when it has one (Vite in middleware mode has none): the set-up
   * listens to its `upgrade`, answers its CONNECTs 400, closes the proxy with it, prints the
   * routes once it listens, and sends the inspector's replays to it.
   */
  readonly server?: (EventEmitter & { readonly listening?: boolean }) | undefined
  /**
   * Called with an upgrade that is neither the dev server's own nor taken by a route (no `ws`
   * route matches, or its `pathFilter`/`bypass` passed it on): a server with no other socket
   * answers it here, so it does not hang. Dev servers with sockets of their own leave it unset.
   * @default leave the socket to the server's other listeners
   */
  readonly unclaimedUpgrade?: ((req: IncomingMessage, socket: Duplex) => void) | undefined
  /**
   * The framework's own way to make a server-side call reach the dev server, given the path
   * (`(path) => \`SvelteKit's event.fetch('${path}')\``): named after `serverFetch` in the hint
   * about a server-side `fetch('/api/…')` that missed the proxy, where it exists.
   * @default none: the hint names `serverFetch` only
   */
  readonly serverFetchAlternative?: ((path: string) => string) | undefined
}

/** The proxy as a dev server mounts it. */
export interface DevServerProxy {
  /**
   * The connect middleware to mount; at `log: 'debug'` it logs each request it answered with
   * both hops (`h2 GET /api/x → http://localhost:3000/x 200 3 ms`), so every adapter speaks one format.
   */
  readonly middleware: (req: ProxyRequest, res: ProxyResponse, next: NextFunction) => void
  /** Whether a route claims the request. */
  claims(req: { readonly url?: string | undefined }): boolean
  /** The resolved routes, longest prefix first. */
  readonly routes: readonly ResolvedRoute[]
  /** The proxy's one logger, for the adapter's own warnings. */
  readonly logger: Logger
  /**
   * Wires a server that exists only after the set-up (Vite in middleware mode, Nuxt's listener):
   * what `host.server` gets, namely the `upgrade` listener, CONNECT answered 400, the proxy
   * closed with it, the routes line and the URL that `serverFetch` uses once it listens.
   * Attaching the same server again does nothing.
   */
  attach(server: EventEmitter & { readonly listening?: boolean }): void
  /**
   * The overlay's client (`overlay`, on by default): the path the dev server serves it at, for
   * a `<script type="module">` (`/__cors-dev-proxy/client.js`), and its source, for an adapter
   * that bundles it (webpack's added entry). `undefined` with `overlay: false`.
   */
  readonly overlayClient: { readonly path: string; readonly source: string } | undefined
  /** Closes the proxy (pools, sockets, mock backends); also done when `host.server` closes. */
  close(): Promise<void>
}

/**
 * Does the set-up every adapter needs, once, on the one assembly (`assembleProxy`): one logger
 * (the user's `logger`, else the dev server's sink), the proxy and its endpoints built from the
 * configuration the adapter resolved when the user called it, the `upgrade` listener (leaving
 * the dev server's own sockets alone and applying its host check), CONNECT answered 400 on an
 * HTTP/1.1 server, the proxy closed with the server, and the routes line once the server
 * listens. The adapter keeps only what knows its dev server.
 *
 * @example
 * const resolved = resolveOptions(routes, options) // throws where the config is written
 * // later, when the dev server exists:
 * const proxy = createDevServerProxy(resolved, { sink, server: httpServer, isOwnUpgrade })
 * app.use(proxy.middleware)
 */
export function createDevServerProxy(
  resolved: ResolvedCorsDevProxyOptions,
  host: DevServerHost,
): DevServerProxy {
  let ownServer: EventEmitter | undefined = host.server
  const proxy = assembleProxy(resolved, {
    ...host,
    ownUrl: () => (ownServer === undefined ? undefined : loopbackUrl(ownServer)),
  })
  const { logger, claims } = proxy
  const stopWatching = watchServerFetches({ claims, logger, alternative: host.serverFetchAlternative })
  const upgrade = function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (host.isOwnUpgrade?.(req)) return
    if (!proxy.upgrade(req, socket, head)) host.unclaimedUpgrade?.(req, socket)
  }
  const attached = new WeakSet<EventEmitter>()
  function attach(server: EventEmitter & { readonly listening?: boolean }): void {
    if (attached.has(server)) return
    attached.add(server)
    ownServer ??= server
    server.on('upgrade', upgrade)
    // Node resets a CONNECT without a word when nobody listens: say 400 instead (never a tunnel).
    refuseConnectOn(server)
    server.once('close', () => void close())
    publishServerUrl(server)
    if (server.listening) proxy.announce()
    else server.once('listening', proxy.announce)
  }
  async function close(): Promise<void> {
    stopWatching()
    await proxy.close()
  }
  // Without a server yet (middleware mode), the routes are printed now; `attach` adds the rest.
  if (host.server) attach(host.server)
  else proxy.announce()

  return Object.freeze({
    middleware: proxy.handle as DevServerProxy['middleware'],
    overlayClient:
      resolved.overlay && proxy.scripts !== undefined
        ? { path: OVERLAY_CLIENT_PATH, source: proxy.scripts.client }
        : undefined,
    claims,
    routes: proxy.routes,
    logger,
    attach,
    close,
  })
}
