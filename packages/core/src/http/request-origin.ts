import type { TLSSocket } from 'node:tls'
import type { ProxyRequest } from './proxy-types.js'

/** The host the client asked for: `:authority` on HTTP/2 (RFC 9113 section 8.3.1), else `Host`. */
export function clientHost(req: ProxyRequest): string | undefined {
  const authority = req.headers[':authority']
  return typeof authority === 'string' && authority !== '' ? authority : req.headers.host
}

/** Whether the client reached us over TLS (`https`, or HTTP/2 over TLS). */
export function isEncrypted(req: ProxyRequest): boolean {
  return (req.socket as TLSSocket | undefined)?.encrypted === true
}

/**
 * The origin the browser addressed: the dev server's scheme (TLS or not) and the `Host` it
 * was asked for (`:authority` on HTTP/2). `undefined` when the request names no host.
 */
export function requestedOrigin(req: ProxyRequest): string | undefined {
  const host = clientHost(req)
  if (host === undefined || host === '') return undefined
  return `${isEncrypted(req) ? 'https' : 'http'}://${host}`
}
