import { createServer as createHttpServer, type IncomingMessage } from 'node:http'
import { createServer as createH2cServer, createSecureServer, type Http2ServerRequest } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import type { Duplex } from 'node:stream'
import {
  type CorsDevProxy,
  type CorsDevProxyOptions,
  createCorsDevProxy,
  type ProxyResponse,
  type Routes,
} from '@cors-dev-proxy/core'
import { type ListeningServer, listen, type StartedServer } from './servers.js'
import { localhostCertificate } from './tls.js'

/**
 * How the dev server in front of the proxy speaks: HTTP/1.1, HTTPS/1.1, HTTP/2 over TLS with
 * HTTP/1.1 fallback (what Vite serves with `server.https`), or cleartext HTTP/2 (h2c).
 */
export type ProxyServerKind = 'http' | 'https' | 'h2' | 'h2c'

/** A running server whose request handler is the proxy's middleware, and the proxy. */
export interface RunningProxy extends StartedServer<ListeningServer> {
  proxy: CorsDevProxy
}

/**
 * Starts `createCorsDevProxy(routes, options)` as the whole request handler (no `next`) of a
 * server of the given kind on 127.0.0.1:0, with its upgrade handler attached (an upgrade no
 * route takes is destroyed). `close()` closes the proxy and the server.
 *
 * @example
 * const running = await serveProxy({ '/api': target.url }, { log: 'silent' }, 'h2')
 * afterEach(() => running.close())
 */
export async function serveProxy(
  routes: Routes,
  options: CorsDevProxyOptions = {},
  kind: ProxyServerKind = 'http',
): Promise<RunningProxy> {
  const proxy = createCorsDevProxy(routes, options)
  const handler = (req: IncomingMessage | Http2ServerRequest, res: ProxyResponse) =>
    proxy.middleware(req, res)
  let server: ListeningServer
  if (kind === 'http') server = createHttpServer(handler)
  else if (kind === 'h2c') server = createH2cServer(handler)
  else {
    const { cert, key } = await localhostCertificate()
    server =
      kind === 'https'
        ? createHttpsServer({ cert, key }, handler)
        : createSecureServer({ cert, key, allowHTTP1: true }, handler)
  }
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  const started = await listen(server, kind === 'http' || kind === 'h2c' ? 'http' : 'https')
  return {
    ...started,
    proxy,
    async close() {
      await proxy.close()
      await started.close()
    },
  }
}
