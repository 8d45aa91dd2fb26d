import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { consoleLogSink } from '../config/defaults.js'
import type { LogSink } from '../config/options.js'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import { answerSocket } from '../http/answer-socket.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { loopbackUrl, publishServerUrl } from '../http/server-fetch.js'
import { clientScripts, OVERLAY_CLIENT_PATH } from '../inspector/client-scripts.js'
import { responseHeaderLines } from '../inspector/exchange-ring.js'
import { createInspectorEndpoints, type InspectorEndpoints } from '../inspector/inspector-endpoints.js'
import { isInspectorPath } from '../inspector/inspector-guard.js'
import { createExchangeRecorder } from '../inspector/record-exchange.js'
import { describeRoutes } from '../log/describe-routes.js'
import { createLogger, type Logger } from '../log/logger.js'
import { watchServerFetches } from '../log/server-fetch-hint.js'
import { refuseConnectOn } from '../pipeline/refuse-request.js'
import { createMockWriter } from '../stand-ins/route-mocks/mock-from-exchange.js'
import { buildCorsDevProxy, type EngineProxy } from './create-cors-dev-proxy.js'

/** What an adapter tells the set-up about its dev server. */
export interface DevServerHost {
  /**
   * Where log lines go unless the user set `logger`: the dev server's own logger.
   * @default the console
   */
  readonly sink?: LogSink | undefined
  /**
   * The dev server's HTTP server, when it has one (Vite in middleware mode has none): the set-up
   * listens to its `upgrade`, answers its CONNECTs 400, closes the proxy with it, and prints the
   * routes once it listens.
   */
  readonly server?: (EventEmitter & { readonly listening?: boolean }) | undefined
  /**
   * Whether an upgrade is the dev server's own (its HMR socket): such a socket is never touched,
   * whatever route covers its path.
   * @default none is
   */
  readonly isOwnUpgrade?: ((req: IncomingMessage) => boolean) | undefined
  /**
   * The dev server's Host check (DNS-rebinding protection), applied to upgrades of `ws` routes,
   * which bypass its middleware chain: `false` answers 403.
   * @default every host passes
   */
  readonly isAllowedUpgrade?: ((req: IncomingMessage) => boolean) | undefined
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
  /**
   * The dev server's root (Vite's `config.root`, webpack's `context`): where a relative
   * `recordings.dir` and the routes' mock folders go.
   * @default the working directory
   */
  readonly root?: string | undefined
}

/** The proxy as a dev server mounts it. */
export interface DevServerProxy {
  /**
   * The connect middleware to mount; at `log: 'debug'` it logs each request it answered with
   * both hops (`h2 GET /api/x → http://localhost:3000/x 200 3 ms`), so every adapter speaks one format.
   */
  readonly middleware: (req: ProxyRequest, res: ProxyResponse, next: NextFunction) => void
  /** Whether a route claims the request; the middleware then serves it from the same match. */
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
 * The dev server's `'upgrade'` listener: the dev server's own sockets left alone, its host
 * check applied, and what no route takes handed back (`unclaimedUpgrade`).
 */
function devServerUpgrade(proxy: EngineProxy, host: DevServerHost) {
  return function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (host.isOwnUpgrade?.(req)) return
    const match = proxy.matchOf(req)
    // A route takes its path's WebSockets when it has `ws`, and its path's other upgrades
    // always (the proxy refuses them, where the dev server would leave the socket hanging).
    const websocket = req.headers.upgrade?.toLowerCase() === 'websocket'
    if (match === undefined || (websocket && !match.route.ws)) {
      host.unclaimedUpgrade?.(req, socket)
      return
    }
    if (host.isAllowedUpgrade !== undefined && !host.isAllowedUpgrade(req)) {
      answerSocket(socket, 403, 'Invalid Host header')
      return
    }
    if (!proxy.upgrade(req, socket, head)) host.unclaimedUpgrade?.(req, socket)
  }
}

/**
 * Does the set-up every adapter needs, once: one logger (the user's `logger`, else the dev
 * server's sink), the proxy built from the configuration the adapter resolved when the user
 * called it, the `upgrade` listener (leaving the dev server's own sockets alone and applying its
 * host check), CONNECT answered 400 on an HTTP/1.1 server, the proxy closed with the server, and
 * the startup line once the server listens. The adapter keeps only what knows its dev server.
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
  const logger = createLogger(resolved.log, resolved.logger ?? host.sink ?? consoleLogSink)
  const recorder = resolved.inspector === undefined ? undefined : createExchangeRecorder(resolved.inspector)
  const proxy = buildCorsDevProxy(resolved, logger, recorder, undefined, host.root)
  const { server } = host
  const upgrade = devServerUpgrade(proxy, host)
  let ownServer: EventEmitter | undefined = server
  const scripts = clientScripts({ switches: proxy.controls.routes.length > 0 })
  // Everything under /__cors-dev-proxy/ (the inspector, the overlay's script and `explain`),
  // answered before any route, a route on '/' included.
  const endpoints: InspectorEndpoints | undefined =
    recorder === undefined && !resolved.overlay && proxy.controls.routes.length === 0
      ? undefined
      : createInspectorEndpoints({
          recorder,
          inspector: resolved.inspector,
          overlay: resolved.overlay,
          routes: proxy.routes,
          logger,
          ownUrl: () => (ownServer === undefined ? undefined : loopbackUrl(ownServer)),
          scripts,
          controls: proxy.controls,
          mocks:
            proxy.mocks.length === 0 ? undefined : createMockWriter(proxy.mocks, logger, responseHeaderLines),
        })
  const middleware: DevServerProxy['middleware'] =
    endpoints === undefined
      ? (proxy.middleware as DevServerProxy['middleware'])
      : function corsDevProxyWithInspector(req, res, next) {
          if (isInspectorPath(req.url)) endpoints.handle(req, res)
          else proxy.middleware(req, res, next)
        }

  const claims = (req: { readonly url?: string | undefined }) =>
    proxy.matchOf(req) !== undefined || (endpoints !== undefined && isInspectorPath(req.url))
  const stopWatching = watchServerFetches({ claims, logger, alternative: host.serverFetchAlternative })
  let announced = false
  const announce = (): void => {
    if (announced) return
    announced = true
    logger.info(describeRoutes(proxy.routes))
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
    if (server.listening) announce()
    else server.once('listening', announce)
  }
  async function close(): Promise<void> {
    stopWatching()
    await Promise.all([proxy.close(), endpoints?.close()])
  }
  // Without a server yet (middleware mode), the routes are printed now; `attach` adds the rest.
  if (server) attach(server)
  else announce()

  return Object.freeze({
    middleware,
    overlayClient: resolved.overlay ? { path: OVERLAY_CLIENT_PATH, source: scripts.client } : undefined,
    claims,
    routes: proxy.routes,
    logger,
    attach,
    close,
  })
}
