import type { Duplex } from 'node:stream'
import { answerSocket } from '../../http/answer-socket.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { FailWith } from './options/control-options.js'

/** The header on every answer a fault made up, so nobody takes it for the backend's. */
export const FAULT_HEADER = 'x-cors-dev-proxy-fault'

/** What a made-up failure says, so nobody takes it for the backend's. */
function faultWords(prefix: string): string {
  return `fault injected by cors-dev-proxy: route '${prefix}' fails this share of its requests (failRate)`
}

/**
 * Refuses a WebSocket handshake `failRate` failed: `failWith`'s status on the raw socket, with
 * `X-Cors-Dev-Proxy-Fault` (the client's `WebSocket` fails to open, as when the target refuses
 * it); `'reset'` destroys the socket.
 *
 * @example
 * refuseUpgradeFault(socket, 503, '/live')
 */
export function refuseUpgradeFault(socket: Duplex, failWith: FailWith, prefix: string): void {
  if (failWith === 'reset') {
    socket.destroy()
    return
  }
  answerSocket(socket, failWith, `${faultWords(prefix)}\n`, [[FAULT_HEADER, `failRate; ${failWith}`]])
}

/**
 * A WebSocket handshake `failRate` failed, behind the Fetch handler (which has no socket to
 * answer on): `failWith`'s status as a `Response` with `X-Cors-Dev-Proxy-Fault`, or for
 * `'reset'` a network error (`Response.error()`).
 *
 * @example
 * return upgradeFaultResponse(503, '/live')
 */
export function upgradeFaultResponse(failWith: FailWith, prefix: string): Response {
  if (failWith === 'reset') return Response.error()
  return new Response(`${faultWords(prefix)}\n`, {
    status: failWith,
    headers: { 'content-type': 'text/plain; charset=utf-8', [FAULT_HEADER]: `failRate; ${failWith}` },
  })
}

/**
 * Answers a request `failRate` failed: `failWith`'s status with a short body (JSON when the
 * client accepts it) and `X-Cors-Dev-Proxy-Fault`, through the response's head hooks, so the
 * route's CORS headers are on it and the page sees the status, not a CORS error; `'reset'`
 * destroys the response, which drops the client's connection (an HTTP/2 stream is reset).
 *
 * @example
 * answerFault(req, res, 503, "/api") // 503 {"error":"fault injected by cors-dev-proxy ..."}
 */
export function answerFault(req: ProxyRequest, res: ProxyResponse, failWith: FailWith, prefix: string): void {
  if (failWith === 'reset') {
    res.destroy()
    return
  }
  const words = faultWords(prefix)
  const json = (req.headers.accept ?? '').includes('json')
  sendText(
    res,
    failWith,
    json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    json ? `${JSON.stringify({ error: words, status: failWith })}\n` : `${words}\n`,
    [[FAULT_HEADER, `failRate; ${failWith}`]],
  )
}
