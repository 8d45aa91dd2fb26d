import { type FrontLog, type RunningCaddyFront, startCaddyFront } from './caddy-front.js'
import { certificateFiles } from './certificate.js'
import { freeTcpAndUdpPort } from './free-port.js'

/** What {@link startHttp3Front} needs from `startServe`. */
export interface Http3FrontOptions {
  /** The `caddy` executable. */
  readonly caddy: string
  /** The port asked for; 0 picks one free for both TCP and UDP. */
  readonly port: number
  /** `serve --host`. */
  readonly host: string
  /** Our HTTPS server's loopback port. */
  readonly innerPort: number
  /** Where the certificate is cached (Caddy's files go in a folder of it). */
  readonly certificateDir: string
  /** The secret Caddy proves itself with (see front-request.ts). */
  readonly token: string
  /** Whether ::1 exists, for a loopback host. */
  readonly ipv6Loopback: boolean
  readonly log: FrontLog
  /** Aborted when `serve` is stopped during start-up (see `startCaddyFront`). */
  readonly signal?: AbortSignal
}

/**
 * Starts Caddy in front of our HTTPS server on the port asked for, or, for `--port 0`, on one
 * free for TCP and UDP, trying another once when that one is taken between the check and
 * Caddy's bind. Returns the running front and the public port.
 *
 * @example
 * const { front, port } = await startHttp3Front({ caddy, port: 0, host: '127.0.0.1', innerPort, certificateDir, token, ipv6Loopback: true, log })
 */
export async function startHttp3Front(
  options: Http3FrontOptions,
): Promise<{ readonly front: RunningCaddyFront; readonly port: number }> {
  const files = certificateFiles(options.certificateDir)
  const start = (port: number) =>
    startCaddyFront({
      caddy: options.caddy,
      port,
      host: options.host,
      innerPort: options.innerPort,
      certFile: files.cert,
      keyFile: files.key,
      cacheDir: options.certificateDir,
      log: options.log,
      token: options.token,
      ipv6Loopback: options.ipv6Loopback,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
  const pick = () => freeTcpAndUdpPort(options.host, options.ipv6Loopback)
  const port = options.port === 0 ? await pick() : options.port
  try {
    return { front: await start(port), port }
  } catch (error) {
    if (
      options.port !== 0 ||
      options.signal?.aborted ||
      (error as NodeJS.ErrnoException).code !== 'EADDRINUSE'
    )
      throw error
    const again = await pick()
    return { front: await start(again), port: again }
  }
}
