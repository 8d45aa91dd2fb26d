import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { answerSocket } from '../http/answer-socket.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import { isOriginForm } from './match-route.js'

const REFUSAL = 'cors-dev-proxy forwards paths only: absolute URLs and CONNECT are refused\n'
const TWO_HOSTS = 'cors-dev-proxy refuses a request with more than one Host header\n'
const HTTP_09 = 'cors-dev-proxy refuses HTTP/0.9 requests\n'
const CLOSE = [['connection', 'close']] as const

/**
 * Whether the request carries more than one Host line. RFC 9112 section 3.2 requires a 400:
 * readers disagree on which one counts (Node keeps the first, others the last), so a host
 * check could pass one while something behind it acts on the other.
 */
function hasTwoHosts(rawHeaders: readonly string[] | undefined): boolean {
  // An embedder's hand-made request (a test double, an in-memory adapter) may have none.
  if (rawHeaders === undefined) return false
  let seen = false
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true
      seen = true
    }
  }
  return false
}

/**
 * Refuses what would turn the dev server into an open forward proxy: a request target in
 * absolute-form (`GET http://evil.example/ HTTP/1.1`), authority-form or asterisk-form (RFC 9112
 * section 3.2), and the CONNECT method. Only origin-form targets (`/path?query`) are routes; the
 * target host is always the configured one, so no DNS lookup or connection happens for these.
 * A request with two Host lines is refused too (see `hasTwoHosts`), and one Node parsed as
 * HTTP/0.9 (a bare LF ends its request line early).
 * Answers 400 with a one-line body and returns `true`; returns `false` for an ordinary request.
 *
 * Node's own servers never hand a CONNECT to a request handler (`http` closes the socket when
 * nobody listens to `'connect'`, `http2` answers 405); the check here covers servers that do,
 * and {@link refuseConnect} answers the `'connect'` event itself.
 *
 * @example
 * if (refuseRequest(req, res)) return
 */
export function refuseRequest(req: ProxyRequest, res: ProxyResponse): boolean {
  const url = req.url
  if (req.method !== 'CONNECT' && url !== undefined && isOriginForm(url)) {
    // Node reads `GET /x\nName: v HTTP/1.1` as an HTTP/0.9 request line followed by headers:
    // only a bare LF in the request line gets there, never a real client.
    const refusal = req.httpVersionMajor === 0 ? HTTP_09 : hasTwoHosts(req.rawHeaders) ? TWO_HOSTS : undefined
    if (refusal === undefined) return false
    sendText(res, 400, 'text/plain; charset=utf-8', refusal, CLOSE)
    return true
  }
  // A refused CONNECT may be followed by tunnel bytes that are not HTTP: do not read on.
  const close = req.method === 'CONNECT' && req.httpVersionMajor === 1
  sendText(res, 400, 'text/plain; charset=utf-8', REFUSAL, close ? CLOSE : [])
  return true
}

/**
 * A listener for the HTTP/1.1 server's `'connect'` event that answers 400 and closes the
 * socket, instead of Node's silent reset, on a server where nobody else tunnels (`proxy.connect`
 * of `createCorsDevProxy`). Nothing is forwarded and nothing is resolved.
 *
 * @example
 * server.on('connect', refuseConnect)
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  answerSocket(socket, 400, REFUSAL)
}

/**
 * Registers {@link refuseConnect} on a dev server that speaks HTTP/1.1 and has no `'connect'`
 * listener of its own, and returns whether it did. HTTP/2 servers are left alone: their
 * `'connect'` event carries `(req, res)` and, without a listener, they answer CONNECT 405.
 *
 * @example
 * refuseConnectOn(viteServer.httpServer)
 */
export function refuseConnectOn(server: EventEmitter): boolean {
  if ('updateSettings' in server || server.listenerCount('connect') > 0) return false
  server.on('connect', refuseConnect)
  return true
}
