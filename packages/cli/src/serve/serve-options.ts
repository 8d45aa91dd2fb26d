import type { LogSink } from '@cors-dev-proxy/core'
import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import type { FrontLog } from './caddy-front.js'
import type { LocalCertificate } from './certificate.js'
import type { ServerUrls } from './server-urls.js'

/** What `serve` runs: the proxy configuration and the server around it. */
export interface ServeOptions {
  /** The routes and shared options, resolved by the core; without them only the static files are served. */
  readonly resolved: ResolvedCorsDevProxyOptions | undefined
  /** @default 8080 */
  readonly port: number
  /** @default '127.0.0.1' */
  readonly host: string
  /** The folder of static files (absolute), or `undefined` for none. */
  readonly staticDir?: string | undefined
  /** Serve HTTP/2 over TLS (HTTP/1.1 still accepted) with a local self-signed certificate. */
  readonly https?: boolean
  /**
   * HTTP/3 through Caddy (implies `https`): `caddy` is its executable. Caddy listens on `port`
   * (TCP and UDP) and forwards to our HTTPS server on a loopback port of its own.
   */
  readonly http3?: { readonly caddy: string; readonly log?: FrontLog } | undefined
  /** Hosts the host check accepts besides loopback and the bind address. */
  readonly allowedHosts?: readonly string[]
  /** The project folder, where the certificate is cached (`node_modules/.cache`). */
  readonly cwd: string
  /** Where the proxy logs, unless the configuration names a `logger`. @default the console */
  readonly sink?: LogSink
  /**
   * Called once the server listens, before the proxy prints its routes line, so the URLs come
   * first as in Vite's banner.
   */
  readonly onListening?: (listening: {
    readonly urls: ServerUrls
    readonly port: number
    readonly certificate: LocalCertificate | undefined
  }) => void
  /**
   * Aborted when the user stops `serve` before it is up (Ctrl-C while the certificate is made or
   * Caddy starts): what was started is stopped at once and `startServe` rejects with the
   * signal's reason.
   */
  readonly signal?: AbortSignal
}
