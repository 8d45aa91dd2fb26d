import type { ResolvedRoute } from '../config/resolved-route.js'
import { matchRoute } from '../pipeline/match-route.js'
import type { CallExplanation, RouteFix } from './call-explanation.js'
import { BACKEND_PLACEHOLDER, isOwnServer, writtenRoute } from './suggest-route.js'

/** A WebSocket is explained from the routes: nothing is sent to it. */
const NOT_PROBED = Object.freeze({
  sent: [],
  fromMemo: false,
  text: 'not probed: a WebSocket is explained from the routes, nothing was sent to the server',
})

/**
 * How the front end in use carries a `ws` route's upgrades, for the fix a failed WebSocket gets:
 * `upgrade`, a Node server's `upgrade` event (every dev-server adapter, `serve`): `ws: true` is
 * enough; `bridge`, the Fetch handler: `ws: true`, and the runtime's upgrades handed to its
 * `webSocket(request)`; or none at all (Next's `proxy.ts`): `why` says so, `where` is where
 * the route goes instead (the card's line above it).
 */
export type WebSocketCarrier =
  | 'upgrade'
  | 'bridge'
  | { readonly none: { readonly why: string; readonly where: string } }

/** What a `ws` route needs besides `ws: true` behind the Fetch handler. */
const BRIDGE =
  "the runtime's upgrades handed to the handler's `webSocket(request)` (Bun's `server.upgrade`, `Deno.upgradeWebSocket`, @hono/node-ws's `upgradeWebSocket`: see the Fetch handler's page)"

/** What makes a route take WebSockets on this front end, in a sentence's end. */
function wsNeeds(carrier: WebSocketCarrier): string {
  if (carrier === 'upgrade') return '`ws: true` on it'
  if (carrier === 'bridge') return `\`ws: true\` on it, and ${BRIDGE}`
  return `a front end that takes them: ${carrier.none.why}`
}

/** The card's line above the route, where the front end cannot carry it. */
function whereOf(carrier: WebSocketCarrier): { routeWhere?: string } {
  return typeof carrier === 'object' ? { routeWhere: carrier.none.where } : {}
}

/**
 * Explains a failed WebSocket from the routes, without a probe: it is not subject to CORS, so
 * the cause is our route (none for the path, no `ws`, or its `cors` policy refusing the page's
 * Origin) or the server. A socket to the dev server itself (under any loopback name) is a call
 * to this dev server, never a cross-origin one, and its fix is never a route to the dev server;
 * the fix is what works on the front end in use (`carrier`).
 *
 * @example
 * explainWebSocket(new URL('ws://localhost:3000/live'), 'http://localhost:5173', routes, fixed).cause
 */
export function explainWebSocket(
  url: URL,
  pageOrigin: string,
  routes: readonly ResolvedRoute[],
  fixed: RouteFix,
  carrier: WebSocketCarrier = 'upgrade',
): CallExplanation {
  const own = isOwnServer(url, pageOrigin)
  const match = own ? matchRoute(routes, `${url.pathname}${url.search}`) : undefined
  const unprobed = { probed: false, cookies: [], certainty: 'inferred', probe: NOT_PROBED } as const
  const call = `new WebSocket('${url.pathname}${url.search}')`
  if (match !== undefined) {
    const route = match.route
    const cause = !route.ws
      ? `The route '${route.prefix}' forwards HTTP only: WebSocket upgrades need ${wsNeeds(carrier)}.`
      : route.cors !== undefined
        ? `The route '${route.prefix}' has a CORS policy, and cors-dev-proxy checks a WebSocket's Origin against it: the handshake from ${pageOrigin} was refused (403), or the target refused it.`
        : `The route '${route.prefix}' forwards WebSockets; the target refused the handshake or is not running${carrier === 'bridge' ? `, or ${BRIDGE.replace('handed', 'are not handed')}` : ''}.`
    return {
      kind: 'websocket',
      message: undefined,
      cause,
      route:
        route.kind === 'forward' ? writtenRoute(route, true) : `'${route.prefix}': { mock: true, ws: true }`,
      call,
      routeExists: true,
      ...(route.ws ? {} : whereOf(carrier)),
      serverFix: route.cors === undefined ? undefined : `add '${pageOrigin}' to the route's \`cors.origin\``,
      ...unprobed,
    }
  }
  if (own) {
    const placeholder = fixed.route.includes(BACKEND_PLACEHOLDER)
    return {
      kind: 'websocket',
      message: undefined,
      cause: `No route takes ${url.pathname}: the dev server itself has no WebSocket there. Add a route for it to your WebSocket server (${placeholder ? 'put its address in `target`' : 'the backend of your other routes; change `target` if the socket is served elsewhere'}); \`pathRewrite: false\` sends it ${url.pathname} as the page calls it. A WebSocket route needs ${wsNeeds(carrier)}.`,
      ...fixed,
      ...whereOf(carrier),
      serverFix: undefined,
      ...unprobed,
    }
  }
  return {
    kind: 'websocket',
    message: undefined,
    cause: `WebSockets are not subject to CORS: the server refused the handshake (many check Origin and refuse other origins) or is not running.${carrier === 'upgrade' ? '' : ` To proxy it instead, the route below needs ${wsNeeds(carrier)}.`}`,
    ...fixed,
    ...whereOf(carrier),
    serverFix: `accept the Origin ${pageOrigin} in the WebSocket server's handshake check`,
    ...unprobed,
  }
}
