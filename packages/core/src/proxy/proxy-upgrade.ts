import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { allowOriginExample } from '../cors/allow-origin-example.js'
import { createUpgradeOriginCheck, type UpgradeOriginCheck } from '../cors/upgrade-origin.js'
import type { FailureLog } from '../forward/failure-log.js'
import { forwardUpgrade } from '../forward/websocket-upgrade.js'
import { answerSocket } from '../http/answer-socket.js'
import type { Logger } from '../log/logger.js'
import type { RequestMatcher } from '../pipeline/match-route.js'
import type { RouteGate } from '../pipeline/route-gate.js'
import type { Handshake } from '../stand-ins/stand-in.js'
import type { BuiltRoutePipeline } from './create-route-pipeline.js'

const NOT_A_WEBSOCKET = 'cors-dev-proxy forwards WebSocket upgrades only\n'

/** What the upgrade handler shares with the rest of the proxy. */
export interface UpgradeHandlerDeps {
  readonly routes: readonly ResolvedRoute[]
  readonly matchOf: RequestMatcher
  readonly pipelines: ReadonlyMap<ResolvedRoute, BuiltRoutePipeline>
  /** The routes' `pathFilter`/`bypass` gates (see `createRouteGate`). */
  readonly gates: ReadonlyMap<ResolvedRoute, RouteGate>
  readonly logger: Logger
  readonly failures: FailureLog
  /** Every socket the proxy holds, so `close()` can end them. */
  readonly sockets: Set<Duplex>
}

/** The upgrade handler's deps, with each `ws` route's origin check of its `cors`. */
interface UpgradeContext extends UpgradeHandlerDeps {
  readonly checks: ReadonlyMap<ResolvedRoute, UpgradeOriginCheck>
}

/**
 * The route takes the upgrade: through its stand-ins' upgrade steps (the faults, the target in
 * use, a `mock` route's echo: see `BackendStep.upgrade`), then to the target's socket. Whether the
 * socket was taken: a `mock` route has no target, so one its echo leaves is not.
 */
function runUpgrade(context: UpgradeContext, upgrade: Handshake): boolean {
  const toTarget = (handshake: Handshake): boolean => {
    const { req, socket, head, route, path } = handshake
    if (route.kind !== 'forward') return false
    const { logger, sockets, failures } = context
    forwardUpgrade(req, socket, head, route, path, { logger, sockets, failures })
    return true
  }
  const pipeline = context.pipelines.get(upgrade.route)
  return pipeline === undefined ? toTarget(upgrade) : pipeline.upgrade(upgrade, toTarget)
}

/** The route takes an upgrade it admitted (`runUpgrade`): one nothing took is answered 404. */
function passUpgrade(context: UpgradeContext, upgrade: Handshake): void {
  if (!runUpgrade(context, upgrade)) answerSocket(upgrade.socket, 404, 'Not Found\n')
}

/** A page the route's `cors` does not allow may not open a WebSocket there: 403, logged once per route every 10 s. */
function refuseOrigin(
  context: UpgradeContext,
  req: IncomingMessage,
  socket: Duplex,
  route: ResolvedRoute,
): void {
  const origin = String(req.headers.origin)
  logOriginRefusal(context.logger, route, String(req.url), origin)
  answerSocket(socket, 403, `Forbidden: the origin ${origin} may not open WebSockets on ${route.prefix}\n`)
}

/**
 * Logs a WebSocket refused because the route's `cors` does not admit the page, with the fix;
 * one line per route every 10 s, whatever the origin: a page can try any number of them.
 * Shared by the Node and the Fetch front ends.
 *
 * @example
 * logOriginRefusal(logger, route, '/live', 'https://evil.example')
 */
export function logOriginRefusal(logger: Logger, route: ResolvedRoute, url: string, origin: string): void {
  logger.limited(
    'warn',
    `ws-origin ${route.prefix}`,
    () =>
      `WebSocket ${url} from ${origin} refused (403): route '${route.prefix}' has \`cors\`, whose origin policy does not allow that page. ` +
      `Fix: allow it in the route's \`cors.origin\`, e.g. ${allowOriginExample(route.cors?.origin, origin)}`,
  )
}

/** A `ws` route takes the upgrade: its origin policy first, when it has `cors`. */
function admitUpgrade(context: UpgradeContext, upgrade: Handshake): void {
  const check = context.checks.get(upgrade.route)
  if (check === undefined) {
    passUpgrade(context, upgrade)
    return
  }
  const decide = (allowed: boolean): void => {
    if (allowed) passUpgrade(context, upgrade)
    else refuseOrigin(context, upgrade.req, upgrade.socket, upgrade.route)
  }
  const verdict = check(upgrade.req)
  if (typeof verdict === 'boolean') decide(verdict)
  else void verdict.then(decide)
}

/**
 * The route's `pathFilter`/`bypass` gate on an upgrade: whether the proxy took the socket
 * (`true`), left it (`false`), or lets the route admit it (`undefined`).
 */
function gateUpgrade(context: UpgradeContext, upgrade: Handshake): boolean | undefined {
  const { req, socket, route, path } = upgrade
  const gate = context.gates.get(route)
  if (gate === undefined) return undefined
  const verdict = gate(req, undefined, path)
  if (verdict instanceof Promise) {
    // An async `bypass` decides after the other listeners ran: the socket is ours to answer.
    void verdict.then((settled) => {
      if (settled === 'take') admitUpgrade(context, upgrade)
      else if (settled === 'refuse') answerSocket(socket, 404, 'Not Found\n')
    })
    return true
  }
  if (verdict === 'pass') return false
  if (verdict === 'refuse') {
    answerSocket(socket, 404, 'Not Found\n')
    return true
  }
  return verdict === 'done' ? true : undefined
}

/**
 * The proxy's `'upgrade'` listener: takes the WebSocket handshake of a `ws` route and returns
 * `true`, or returns `false` without touching the socket (the dev server's own sockets). An
 * upgrade to another protocol on any route's path is answered 400 (and `true` returned). On a
 * route with `cors`, the handshake's `Origin` must pass the route's origin policy (see
 * `createUpgradeOriginCheck`), else 403, since browsers apply no CORS to WebSockets. A route
 * with control options delays or refuses it by its faults (its control's upgrade step, one of
 * the stand-ins' steps `runUpgrade` runs as the backend step runs their steps on a request).
 *
 * @example
 * server.on('upgrade', createUpgradeHandler(deps))
 */
export function createUpgradeHandler(deps: UpgradeHandlerDeps) {
  const checks = new Map<ResolvedRoute, UpgradeOriginCheck>()
  for (const route of deps.routes)
    if (route.ws && route.cors) checks.set(route, createUpgradeOriginCheck(route.cors))
  const context: UpgradeContext = { ...deps, checks }

  return function corsDevProxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const match = deps.matchOf(req)
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') {
      // Nothing forwards another protocol (h2c, a made-up one), and a dev server with upgrade
      // listeners of its own leaves such a socket open for good: on a route's path, say no.
      if (match === undefined) return false
      answerSocket(socket, 400, NOT_A_WEBSOCKET)
      return true
    }
    // Only a `ws` route takes an upgrade, mock or not, so the dev server's HMR socket is never touched.
    if (match === undefined || !match.route.ws) return false
    const { route, path } = match
    const upgrade: Handshake = { req, socket, head, route, path }
    const gated = gateUpgrade(context, upgrade)
    if (gated !== undefined) return gated
    // Without an origin check, the route's answer is its stand-ins' and target's own: a `mock`
    // route's echo leaves an upgrade off its path to the server's other listeners.
    if (!checks.has(route)) return runUpgrade(context, upgrade)
    admitUpgrade(context, upgrade)
    return true
  }
}
