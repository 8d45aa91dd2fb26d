import { connect } from 'node:tls'

/** The HTTP version a browser would get from a server, and why. */
export interface NegotiatedProtocol {
  /** `h2` or `http/1.1` (ALPN's names), or `null` when TLS could not be set up. */
  readonly alpn: 'h2' | 'http/1.1' | null
  /** One sentence for the report. */
  readonly note: string
}

/**
 * Asks an `https:` server which protocol it picks when offered `h2` and `http/1.1`, as a browser
 * offers them in its TLS handshake (ALPN, RFC 7301). Browsers speak HTTP/2 only over TLS, so an
 * `http:` URL is HTTP/1.1 without a connection. CORS is checked the same way whatever the version.
 *
 * @example
 * await negotiatedProtocol(new URL('https://localhost:8443/'), { timeout: 5000, secure: false })
 * // { alpn: 'h2', note: 'HTTP/2, negotiated by ALPN (the browser offers h2 and http/1.1)' }
 */
export function negotiatedProtocol(
  url: URL,
  options: { readonly timeout: number; readonly secure: boolean },
): Promise<NegotiatedProtocol> {
  if (url.protocol !== 'https:') {
    return Promise.resolve({
      alpn: 'http/1.1',
      note: 'HTTP/1.1: browsers speak HTTP/2 only over TLS (https:)',
    })
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      // SNI carries names only, never addresses (RFC 6066 §3).
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
      ALPNProtocols: ['h2', 'http/1.1'],
      rejectUnauthorized: options.secure,
    })
    const done = (result: NegotiatedProtocol) => {
      socket.destroy()
      resolve(result)
    }
    socket.setTimeout(options.timeout, () =>
      done({ alpn: null, note: 'unknown: the TLS handshake timed out' }),
    )
    socket.once('secureConnect', () => {
      const h2 = socket.alpnProtocol === 'h2'
      done(
        h2
          ? { alpn: 'h2', note: 'HTTP/2, negotiated by ALPN (the browser offers h2 and http/1.1)' }
          : {
              alpn: 'http/1.1',
              note: 'HTTP/1.1: the server did not choose h2 when the browser offered it (ALPN)',
            },
      )
    })
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({ alpn: null, note: `unknown: the TLS handshake failed (${error.code ?? error.message})` }),
    )
  })
}
