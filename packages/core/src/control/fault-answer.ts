import type { FailWith } from '../config/control-options.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'

/** The header on every answer a fault made up, so nobody takes it for the backend's. */
export const FAULT_HEADER = 'x-cors-dev-proxy-fault'

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
  const words = `fault injected by cors-dev-proxy: route '${prefix}' fails this share of its requests (failRate)`
  const json = (req.headers.accept ?? '').includes('json')
  sendText(
    res,
    failWith,
    json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    json ? `${JSON.stringify({ error: words, status: failWith })}\n` : `${words}\n`,
    [[FAULT_HEADER, `failRate; ${failWith}`]],
  )
}
