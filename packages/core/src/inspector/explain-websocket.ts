import type { ResolvedRoute } from '../config/resolved-route.js'
import { httpOrigin } from '../http/http-origin.js'
import { matchRoute } from '../pipeline/match-route.js'
import type { CallExplanation, RouteFix } from './call-explanation.js'
import { writtenRoute } from './suggest-route.js'

/** A WebSocket is explained from the routes: nothing is sent to it. */
const NOT_PROBED = Object.freeze({
  sent: [],
  fromMemo: false,
  text: 'not probed: a WebSocket is explained from the routes, nothing was sent to the server',
})

/**
 * Explains a failed WebSocket from the routes, without a probe: it is not subject to CORS, so
 * the cause is our route (no `ws`, or its `cors` policy refusing the page's Origin) or the server.
 *
 * @example
 * explainWebSocket(new URL('ws://localhost:3000/live'), 'http://localhost:5173', routes, fixed).cause
 */
export function explainWebSocket(
  url: URL,
  pageOrigin: string,
  routes: readonly ResolvedRoute[],
  fixed: RouteFix,
): CallExplanation {
  const sameOrigin = httpOrigin(url) === pageOrigin
  const match = sameOrigin ? matchRoute(routes, `${url.pathname}${url.search}`) : undefined
  const unprobed = { probed: false, cookies: [], certainty: 'inferred', probe: NOT_PROBED } as const
  if (match !== undefined) {
    const route = match.route
    const cause = !route.ws
      ? `The route '${route.prefix}' forwards HTTP only: WebSocket upgrades need \`ws: true\` on it.`
      : route.cors !== undefined
        ? `The route '${route.prefix}' has a CORS policy, and cors-dev-proxy checks a WebSocket's Origin against it: the handshake from ${pageOrigin} was refused (403), or the target refused it.`
        : `The route '${route.prefix}' forwards WebSockets; the target refused the handshake or is not running.`
    return {
      kind: 'websocket',
      message: undefined,
      cause,
      route:
        route.kind === 'forward' ? writtenRoute(route, true) : `'${route.prefix}': { mock: true, ws: true }`,
      call: `new WebSocket('${url.pathname}${url.search}')`,
      routeExists: true,
      serverFix: route.cors === undefined ? undefined : `add '${pageOrigin}' to the route's \`cors.origin\``,
      ...unprobed,
    }
  }
  return {
    kind: 'websocket',
    message: undefined,
    cause:
      'WebSockets are not subject to CORS: the server refused the handshake (many check Origin and refuse other origins) or is not running.',
    ...fixed,
    serverFix: `accept the Origin ${pageOrigin} in the WebSocket server's handshake check`,
    ...unprobed,
  }
}
