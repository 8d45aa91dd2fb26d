import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/** The header by which Caddy proves a request came through it: a secret made for this run. */
export const FRONT_TOKEN_HEADER = 'cdp-front'
/** The address Caddy saw the browser at. */
export const FRONT_CLIENT_HEADER = 'cdp-front-client'
/**
 * The forwarding headers Caddy sets itself (replacing the client's, as it trusts no client);
 * the front's Caddyfile sends the client's own values back under the same names.
 */
export const FRONT_RESTORED_HEADERS: readonly string[] = [
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
]

/** A request as the front's check reads and rewrites it (node:http's and node:http2's both fit). */
export interface FrontRequest {
  readonly headers: IncomingHttpHeaders
  readonly socket: unknown
}

/** `socket` seen with another peer address: reads go to the socket itself, functions bound to it. */
function withPeer(socket: object, address: string): object {
  return new Proxy(socket, {
    get(target, property) {
      if (property === 'remoteAddress') return address
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * Checks and undoes what Caddy changed on a request it forwarded, so that our server, the routes
 * and the mocks see the browser's request as under `serve --https`: Caddy's token header and
 * client-address header are removed, the client's own `X-Forwarded-*` values are put back (an
 * empty one, which Caddy sends for a header the client did not send, is removed), and the
 * request's socket reports the browser's address (what `X-Forwarded-For` and `X-Real-IP` are
 * built from), not Caddy's loopback one. Returns `false`, changing nothing, for a request without
 * the token: something on this machine that bypassed Caddy, which the caller refuses.
 *
 * @example
 * const restore = createFrontRestore(token)
 * if (!restore(req)) return answer(res, 421, 'use the public port')
 */
export function createFrontRestore(token: string): (req: FrontRequest) => boolean {
  const expected = Buffer.from(token)
  return function restoreFrontRequest(req: FrontRequest): boolean {
    const sent = req.headers[FRONT_TOKEN_HEADER]
    const given = Buffer.from(typeof sent === 'string' ? sent : '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    const headers = req.headers as Record<string, string | string[] | undefined>
    delete headers[FRONT_TOKEN_HEADER]
    const client = headers[FRONT_CLIENT_HEADER]
    delete headers[FRONT_CLIENT_HEADER]
    for (const name of FRONT_RESTORED_HEADERS) if (headers[name] === '') delete headers[name]
    if (
      typeof client === 'string' &&
      client !== '' &&
      typeof req.socket === 'object' &&
      req.socket !== null
    ) {
      // An own property hides the request's `socket` getter (HTTP/2) or field (HTTP/1.1) for this request only.
      Object.defineProperty(req, 'socket', { value: withPeer(req.socket, client), configurable: true })
    }
    return true
  }
}
