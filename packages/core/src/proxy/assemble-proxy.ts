/*
 * One assembly for every front end. `assembleProxy` builds each part of a proxy once from the
 * resolved options: the logger, the recorder, the engine (routes, pipelines, control board,
 * recordings, upgrades: `buildCorsDevProxy`), the description of the endpoints under
 * `/__cors-dev-proxy/` (inspector/served-endpoints.ts, one rule), the browser scripts that read
 * it, the endpoints themselves and the routes line. A front end only translates its request and
 * response into `handle` and says what it knows of its host (`ProxyHost`):
 *
 * - `createCorsDevProxy` (node-middleware.ts): a Node middleware, upgrades by hand;
 * - `createDevServerProxy` (dev-server-proxy.ts): every dev-server adapter and `serve`;
 * - `createFetchHandler` (create-fetch-handler.ts): `Request` in, `Response` out (Next's proxy.ts).
 *
 * So the same routes and options give the same endpoints on each, by construction
 * (test/inspector/endpoint-parity.test.ts). proxy/ is the composition root: it may import every
 * layer, and only the entry points (index.ts, adapter.ts) import it. Beside the assembly: the
 * engine (create-cors-dev-proxy.ts), a route's pipeline (create-route-pipeline.ts) and backend
 * (create-backend-step.ts, the stand-ins in order, then the forwarder), the adapters' early path
 * (serve-before-app.ts), WebSocket upgrades (proxy-upgrade.ts, auto-upgrade.ts for
 * http-proxy-middleware's `upgrade` subscription; fetch-websocket.ts behind the Fetch handler).
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { consoleLogSink } from '../config/defaults.js'
import type { LogSink } from '../config/options.js'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from '../config/resolved-route.js'
import type { UpstreamPoolOptions } from '../forward/upstream-pool.js'
import { answerSocket } from '../http/answer-socket.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { loopbackUrl } from '../http/server-fetch.js'
import { type ClientScripts, clientScripts } from '../inspector/client-scripts.js'
import { responseHeaderLines } from '../inspector/exchange-ring.js'
import type { WebSocketCarrier } from '../inspector/explain-websocket.js'
import { createInspectorEndpoints, type InspectorEndpoints } from '../inspector/inspector-endpoints.js'
import { isInspectorPath } from '../inspector/inspector-guard.js'
import { createExchangeRecorder } from '../inspector/record-exchange.js'
import { type ServedEndpoints, servedEndpointsOf } from '../inspector/served-endpoints.js'
import { describeRoutes } from '../log/describe-routes.js'
import { createLogger, type Logger } from '../log/logger.js'
import { createMockWriter } from '../stand-ins/route-mocks/mock-from-exchange.js'
import { serverOf } from './auto-upgrade.js'
import { buildCorsDevProxy, type EngineProxy } from './create-cors-dev-proxy.js'

/** What a front end knows of its host; every field is optional. */
export interface ProxyHost {
  /**
   * Where log lines go unless the user set `logger` (a dev server's own logger).
   * @default the console
   */
  readonly sink?: LogSink | undefined
  /**
   * Where a relative `recordings.dir` and the routes' mock folders go.
   * @default the working directory
   */
  readonly root?: string | undefined
  /** How the upstream pools dispatch (the Fetch front end's `fetch` on a runtime without undici's `dispatch`). */
  readonly poolOptions?: UpstreamPoolOptions | undefined
  /**
   * Where the inspector's replays go: the server's own loopback URL.
   * @default the server the inspector's requests arrive on (`req.socket.server`)
   */
  readonly ownUrl?: (() => string | undefined) | undefined
  /** How the host carries a `ws` route's upgrades, for the overlay's fix of a failed WebSocket. @default 'upgrade' */
  readonly webSockets?: WebSocketCarrier | undefined
  /**
   * Whether an upgrade is the host's own (a dev server's HMR socket): never touched.
   * @default none is
   */
  readonly isOwnUpgrade?: ((req: IncomingMessage) => boolean) | undefined
  /**
   * The host's Host check (DNS-rebinding protection), for upgrades of `ws` routes, which bypass
   * its middleware chain: `false` answers 403.
   * @default every host passes
   */
  readonly isAllowedUpgrade?: ((req: IncomingMessage) => boolean) | undefined
}

/** A proxy, assembled once: what every front end translates into. */
export interface AssembledProxy {
  /** The engine: the routes' middleware (no endpoints), `upgrade`, `connect`, the control board, the logger. */
  readonly engine: EngineProxy
  readonly logger: Logger
  /** The endpoints that exist under `/__cors-dev-proxy/`; `undefined` when none does. */
  readonly served: ServedEndpoints | undefined
  /** The browser scripts, called with `served`; `undefined` when no endpoint exists. */
  readonly scripts: ClientScripts | undefined
  /** The resolved routes, longest prefix first. */
  readonly routes: readonly ResolvedRoute[]
  /** A request: to the endpoints when under `/__cors-dev-proxy/` and they exist, else to the routes. */
  handle(req: ProxyRequest, res: ProxyResponse, next?: NextFunction): void
  /** Whether the endpoints or a route take the request. */
  claims(req: { readonly url?: string | undefined }): boolean
  /**
   * An upgrade: `false`, socket untouched, for the host's own and those no route takes; 403 when
   * the host's check refuses it; else the engine's `upgrade`.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** Logs the routes line, once (a dev server when it listens, a Fetch handler at once). */
  announce(): void
  /** Closes the engine and the endpoints' streams. */
  close(): Promise<void>
}

/** The endpoints under `/__cors-dev-proxy/` as `served` describes them, or none. */
function endpointsOf(
  resolved: ResolvedCorsDevProxyOptions,
  engine: EngineProxy,
  recorder: ReturnType<typeof createExchangeRecorder> | undefined,
  host: ProxyHost,
): { served?: ServedEndpoints; scripts?: ClientScripts; endpoints?: InspectorEndpoints } {
  const served = servedEndpointsOf({
    inspector: recorder !== undefined,
    overlay: resolved.overlay,
    switches: engine.controls.routes.length > 0,
    mocks: engine.mocks.length > 0,
    contract: engine.violations !== undefined,
  })
  if (served === undefined) return {}
  const scripts = clientScripts(served)
  const { logger } = engine
  // Without a host's word, replays go to the server the inspector's own requests came in on.
  let seen: ReturnType<typeof serverOf>
  const ownUrl = host.ownUrl ?? (() => (seen === undefined ? undefined : loopbackUrl(seen)))
  const endpoints = createInspectorEndpoints({
    served,
    recorder,
    inspector: resolved.inspector,
    routes: resolved.routes,
    logger,
    ownUrl,
    scripts,
    controls: engine.controls,
    mocks: served.mocks ? createMockWriter(engine.mocks, logger, responseHeaderLines) : undefined,
    webSockets: host.webSockets,
    violations: engine.violations,
  })
  if (host.ownUrl !== undefined) return { served, scripts, endpoints }
  const handle: InspectorEndpoints['handle'] = (req, res) => {
    seen ??= serverOf(req)
    endpoints.handle(req, res)
  }
  return { served, scripts, endpoints: { handle, close: endpoints.close } }
}

/** The engine's upgrade behind the host's own-socket test and Host check; the engine's own when it has neither. */
function hostUpgrade(engine: EngineProxy, host: ProxyHost): AssembledProxy['upgrade'] {
  const { isOwnUpgrade, isAllowedUpgrade } = host
  if (isOwnUpgrade === undefined && isAllowedUpgrade === undefined) return engine.upgrade
  return function corsDevProxyHostUpgrade(req, socket, head) {
    if (isOwnUpgrade?.(req)) return false
    const match = engine.matchOf(req)
    // A route takes its path's WebSockets when it has `ws`, and its path's other upgrades
    // always (the proxy refuses them, where the dev server would leave the socket hanging).
    const websocket = req.headers.upgrade?.toLowerCase() === 'websocket'
    if (match === undefined || (websocket && !match.route.ws)) return false
    if (isAllowedUpgrade !== undefined && !isAllowedUpgrade(req)) {
      answerSocket(socket, 403, 'Invalid Host header')
      return true
    }
    return engine.upgrade(req, socket, head)
  }
}

/**
 * Builds every part of a proxy once from options already resolved (nothing here throws a
 * configuration error): the logger (the user's `logger`, else `host.sink`, else the console),
 * the recorder (`inspector`), the engine, the endpoints under `/__cors-dev-proxy/` and their
 * description, the browser scripts, the upgrade handling and the routes line.
 *
 * @example
 * const proxy = assembleProxy(resolveOptions(routes), { sink, root })
 * server.on('request', (req, res) => proxy.handle(req, res))
 */
export function assembleProxy(resolved: ResolvedCorsDevProxyOptions, host: ProxyHost = {}): AssembledProxy {
  const logger = createLogger(resolved.log, resolved.logger ?? host.sink ?? consoleLogSink)
  const recorder = resolved.inspector === undefined ? undefined : createExchangeRecorder(resolved.inspector)
  const engine = buildCorsDevProxy(resolved, logger, recorder, host.poolOptions, host.root)
  const { served, scripts, endpoints } = endpointsOf(resolved, engine, recorder, host)
  const handle: AssembledProxy['handle'] =
    endpoints === undefined
      ? engine.middleware
      : function corsDevProxyMiddleware(req, res, next) {
          if (isInspectorPath(req.url)) endpoints.handle(req, res)
          else engine.middleware(req, res, next)
        }
  let announced = false
  return Object.freeze({
    engine,
    logger,
    served,
    scripts,
    routes: resolved.routes,
    handle,
    // Not stored for the middleware to reuse: matching the path again there costs less than a
    // memo entry per request (a WeakMap entry and its record, about 0.6 µs a request).
    claims: (req: { readonly url?: string | undefined }) =>
      engine.matchOf.withoutMemo(req) !== undefined || (endpoints !== undefined && isInspectorPath(req.url)),
    upgrade: hostUpgrade(engine, host),
    announce() {
      if (announced) return
      announced = true
      logger.info(describeRoutes(resolved.routes))
    },
    async close() {
      await Promise.all([engine.close(), endpoints?.close()])
    },
  })
}
