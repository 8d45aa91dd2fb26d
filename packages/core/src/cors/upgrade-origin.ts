import type { IncomingMessage } from 'node:http'
import type { ResolvedCorsOptions } from '../config/resolve-cors-options.js'
import { type CorsDecision, createCorsDecider } from './cors-decision.js'

/** Whether the route's CORS policy admits the page that opens a WebSocket. */
export type UpgradeOriginCheck = (req: IncomingMessage) => boolean | Promise<boolean>

function admits(decision: CorsDecision, origin: string): boolean {
  if (decision.disabled) return false
  const allowed = decision.headers.find(([name]) => name === 'access-control-allow-origin')?.[1]
  return allowed === '*' || allowed === origin
}

/**
 * The route's origin policy applied to WebSocket upgrades. Browsers do not apply CORS to
 * WebSockets: any page may open one to any server and read the answers, so a route with `cors`
 * checks the handshake's `Origin` itself, with the very rule its HTTP answers follow (a string,
 * list, RegExp, function or the loopback default). A handshake without `Origin` comes from a
 * program, not a page, and passes, as it would reach the backend directly.
 *
 * @example
 * const check = createUpgradeOriginCheck(route.cors)
 * if (!(await check(req))) socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
 */
export function createUpgradeOriginCheck(policy: ResolvedCorsOptions): UpgradeOriginCheck {
  const decide = createCorsDecider(policy)
  return function checkUpgradeOrigin(req) {
    const origin = req.headers.origin
    if (origin === undefined) return true
    const decision = decide(req)
    return decision instanceof Promise
      ? decision.then(
          (settled) => admits(settled, origin),
          () => false,
        )
      : admits(decision, origin)
  }
}
