import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage } from 'node:http'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { CorsDevProxyError } from '../../config/errors.js'
import { createMockBackend, type MockBackend } from './mock-backend.js'
import type { MockRequestLog } from './mock-log.js'
import type { MockBackendOptions } from './options/echo-backend-options.js'

/**
 * Options of {@link startMockBackend}: where to listen, TLS, and the mock's own options.
 *
 * @example
 * await startMockBackend({ port: 4000, cors: 'reflect', https: { cert, key }, http2: true })
 */
export interface StartMockBackendOptions extends MockBackendOptions {
  /**
   * Port to listen on; `0` picks a free one (read it from `url`).
   * @default 0
   */
  port?: number
  /**
   * Address to listen on.
   * @default '127.0.0.1'
   */
  host?: string
  /**
   * Serve over TLS with this certificate and key (PEM).
   * @default undefined (plain http)
   */
  https?: { cert: string | Buffer; key: string | Buffer }
  /**
   * With `https`, also speak HTTP/2 (negotiated by ALPN, HTTP/1.1 still accepted).
   * @default false
   */
  http2?: boolean
}

/** A running mock backend. */
export interface RunningMockBackend {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:4000/`. */
  readonly url: string
  /** Its origin, e.g. `http://127.0.0.1:4000`: a different origin from the dev server's. */
  readonly origin: string
  /** The Node server it runs on. */
  readonly server: HttpServer | HttpsServer | Http2SecureServer
  /** Every request that arrived (see {@link MockRequestLog}), oldest first. */
  readonly log: MockRequestLog[]
  /** The backend itself, e.g. to mount it elsewhere too. */
  readonly backend: MockBackend
  /** Ends open streams and connections and stops listening. */
  close(): Promise<void>
}

/** Hosts that mean "every interface": a browser reaches them as localhost. */
const ANY_HOST = new Set(['0.0.0.0', '::', ''])

/**
 * Runs the mock backend on its own server, so a page has a second origin to call. The server
 * also answers WebSocket upgrades on `/ws`.
 *
 * @example
 * const mock = await startMockBackend({ cors: 'off' })
 * // In the page: fetch(`${mock.origin}/users?cors=reflect`)
 * await mock.close()
 */
export async function startMockBackend(options: StartMockBackendOptions = {}): Promise<RunningMockBackend> {
  const { port = 0, host = '127.0.0.1', https: tls, http2: useHttp2 = false, ...mockOptions } = options
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      'port',
      'must be an integer from 0 to 65535',
      '{ port: 4000 }',
    )
  }
  if (useHttp2 && tls === undefined) {
    throw new CorsDevProxyError(
      'CONFLICTING_OPTIONS',
      'http2',
      'needs https: browsers speak HTTP/2 only over TLS',
      '{ https: { cert, key }, http2: true }',
    )
  }
  const backend = createMockBackend(mockOptions)
  const server =
    tls === undefined
      ? createHttpServer(backend)
      : useHttp2
        ? createSecureServer({ ...tls, allowHTTP1: true }, backend)
        : createHttpsServer(tls, backend)

  // Tracked so close() does not wait for idle keep-alive connections or HTTP/2 sessions.
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!backend.upgrade(req, socket, head)) socket.destroy()
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const name = ANY_HOST.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host
  const origin = `${tls === undefined ? 'http' : 'https'}://${name}:${address.port}`

  return {
    url: `${origin}/`,
    origin,
    server,
    log: backend.log,
    backend,
    async close() {
      await backend.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
  }
}
