import { isIP } from 'node:net'
import { connect as connectTls, type TLSSocket } from 'node:tls'
import type { buildConnector } from 'undici'
import { alpnNegotiationError } from './streaming-upload.js'

/** OpenSSL's code for the TLS alert a server sends when it speaks none of the offered protocols (RFC 7301 §3.2). */
const NO_APPLICATION_PROTOCOL = 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL'

/**
 * An undici connector that offers only `h2` by ALPN, as Chromium does for a request that needs
 * HTTP/2 (a streaming upload), and fails with `ERR_ALPN_NEGOTIATION_FAILED` when the server does
 * not pick it: Chromium 156 then sends nothing on that connection (measured on a Node `https`
 * server: the preflight on its HTTP/1.1 connection, no request). With `allowH2`, undici speaks
 * HTTP/2 on the socket it gets.
 *
 * @example
 * new Agent({ allowH2: true, connect: http2OnlyConnector({ timeout: 10_000, secure: true }) })
 */
export function http2OnlyConnector(options: {
  readonly timeout: number
  readonly secure: boolean
}): buildConnector.connector {
  return function connectHttp2Only({ hostname, port }, callback) {
    const origin = `https://${isIP(hostname) === 6 ? `[${hostname}]` : hostname}${port ? `:${port}` : ''}`
    const socket: TLSSocket = connectTls({
      host: hostname,
      port: Number(port) || 443,
      // SNI takes host names only (RFC 6066 §3).
      ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
      ALPNProtocols: ['h2'],
      rejectUnauthorized: options.secure,
    })
    let settled = false
    const settle = (error: Error | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error === null) {
        callback(null, socket)
        return
      }
      socket.destroy()
      callback(error, null)
    }
    const timer = setTimeout(
      () =>
        settle(
          Object.assign(new Error(`connect to ${origin} timed out`), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
        ),
      options.timeout,
    )
    socket.once('secureConnect', () =>
      settle(socket.alpnProtocol === 'h2' ? null : alpnNegotiationError(origin)),
    )
    // A server that speaks only HTTP/1.1 either picks no protocol or, when it lists its own
    // (Node's https server lists `http/1.1`), ends the handshake with a no_application_protocol alert.
    socket.once('error', (error: Error & { code?: string }) =>
      settle(error.code === NO_APPLICATION_PROTOCOL ? alpnNegotiationError(origin) : error),
    )
  }
}
