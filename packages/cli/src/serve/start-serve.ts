/*
 * serve/: `cors-dev-proxy serve`, the dev server without a framework. `startServe` (here) starts
 * the server (serve-server.ts, with its options in serve-options.ts; whose proxy is the core's `createDevServerProxy`, as the
 * adapters'), with its parts: the Host check (host-check.ts), static files (static-files.ts), a local certificate
 * (certificate.ts), connection tracking for a clean stop (connection-tracker.ts) and the URLs it
 * prints (server-urls.ts). For `--http3`, Caddy is the TLS/QUIC front (caddy-front.ts,
 * http3-front.ts) on ports free for TCP and UDP (free-port.ts), and the browser's request is
 * restored behind it (front-request.ts).
 */
import type { Server as HttpServer } from 'node:http'
import type { Http2SecureServer } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { consoleLogSink, type DevServerProxy } from '@cors-dev-proxy/core/adapter'
import type { FrontLog, RunningCaddyFront } from './caddy-front.js'
import { certificateCacheDir, type LocalCertificate, localCertificate } from './certificate.js'
import type { ConnectionTracker } from './connection-tracker.js'
import { hasIpv6Loopback, isTcpAndUdpFree } from './free-port.js'
import { createHostCheck } from './host-check.js'
import { startHttp3Front } from './http3-front.js'
import type { ServeOptions } from './serve-options.js'
import { attachRoutes, createServeServer, type ServeServer } from './serve-server.js'
import { type ServerUrls, serverUrls } from './server-urls.js'

export type { ServeOptions }

/** A running `serve`. */
export interface RunningServe {
  /** The first local URL, e.g. `http://127.0.0.1:8080/`. */
  readonly url: string
  readonly urls: ServerUrls
  readonly port: number
  readonly server: HttpServer | Http2SecureServer
  /** The proxy, when there are routes. */
  readonly proxy: DevServerProxy | undefined
  /** The certificate, with `https`. */
  readonly certificate: LocalCertificate | undefined
  /** The server's connections (requests in flight). */
  readonly connections: ConnectionTracker
  /** With `http3`: Caddy in front, and the loopback port of our own server behind it. */
  readonly front: (RunningCaddyFront & { readonly innerPort: number }) | undefined
  /** Stops: no new connections, idle ones closed, requests in flight given `graceMs`, then the proxy closed. */
  close(graceMs?: number): Promise<void>
}

/** Caddy's lines when there is no proxy logger (static files only): warnings and errors. */
const consoleFrontLog: FrontLog = {
  debug: () => {},
  warn: consoleLogSink.warn,
  error: consoleLogSink.error,
}

/** Why `listen` failed, in words that say what to do. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`
  if (error.code === 'EADDRINUSE') {
    return new Error(`${where} is already in use: choose another --port, or --port 0 for a free one`)
  }
  if (error.code === 'EACCES')
    return new Error(`no permission to listen on ${where}: use a --port above 1023`)
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new Error(
      `cannot listen on ${where}: ${host} is not an address of this machine (try --host 127.0.0.1)`,
    )
  }
  return new Error(`cannot listen on ${where}: ${error.message}`)
}

/**
 * Starts the standalone dev proxy: a host check (DNS-rebinding protection, WebSocket upgrades
 * included), then the routes (the core's proxy, which also refuses absolute-form targets and
 * CONNECT), then the static files with the SPA fallback, then 404. With `https` the server
 * speaks HTTP/2 over TLS and still accepts HTTP/1.1.
 *
 * @example
 * const resolved = resolveOptions({ routes: { '/api': 'http://127.0.0.1:3000' } })
 * const serve = await startServe({ resolved, port: 0, host: '127.0.0.1', cwd: process.cwd() })
 * console.log(serve.url)
 * await serve.close()
 */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const isAllowed = createHostCheck({ bindHost: options.host, allowedHosts: options.allowedHosts ?? [] })
  const { listenOn, ipv6, certificate } = await prepareListening(options)
  const ctx = createServeServer(options, isAllowed, certificate)
  // Registered before the proxy's own 'listening' listener (its routes line). Behind Caddy both
  // wait until Caddy serves, so the URLs printed are the ones that answer.
  const announce = (): void => options.onListening?.({ ...addressOf(ctx), certificate })
  if (options.http3 === undefined) ctx.server.once('listening', announce)
  const proxy = attachRoutes(ctx)
  await listenOrClose(ctx, listenOn, proxy)
  const front = await startFrontIfAsked(ctx, proxy, ipv6, announce)
  return runningServe(ctx, proxy, front)
}

/** Where to listen, with HTTP/3 the port checked free for TCP and UDP, and the certificate when TLS is asked. */
async function prepareListening(options: ServeOptions): Promise<{
  listenOn: { host: string; port: number }
  ipv6: boolean
  certificate: LocalCertificate | undefined
}> {
  const { http3 } = options
  // Behind Caddy our server listens on loopback only, on a port of its own; Caddy takes the one asked for.
  const listenOn =
    http3 === undefined ? { host: options.host, port: options.port } : { host: '127.0.0.1', port: 0 }
  const ipv6 = http3 !== undefined && (await hasIpv6Loopback())
  if (
    http3 !== undefined &&
    options.port !== 0 &&
    !(await isTcpAndUdpFree(options.host, options.port, ipv6))
  ) {
    throw new Error(
      `${options.host}:${options.port} is already in use for TCP or UDP (HTTP/3 needs both): choose another --port, or --port 0 for a free one`,
    )
  }
  const certificate =
    options.https || http3 !== undefined
      ? await localCertificate(certificateCacheDir(options.cwd), options.host)
      : undefined
  options.signal?.throwIfAborted()
  return { listenOn, ipv6, certificate }
}

/** The port and URLs the user reaches: Caddy's behind HTTP/3, else our server's. */
function addressOf(ctx: ServeServer): { port: number; urls: ServerUrls } {
  const port = ctx.publicPort ?? (ctx.server.address() as AddressInfo).port
  return { port, urls: serverUrls(ctx.certificate === undefined ? 'http' : 'https', ctx.options.host, port) }
}

/** Listens, or closes the proxy and rejects with an error that says what to do. */
async function listenOrClose(
  ctx: ServeServer,
  listenOn: { host: string; port: number },
  proxy: DevServerProxy | undefined,
): Promise<void> {
  const { server, options } = ctx
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(listenError(error, options.host, options.port)),
    )
    server.listen(listenOn.port, listenOn.host, () => resolve())
  }).catch(async (error: unknown) => {
    await proxy?.close()
    throw error
  })
}

/** With `http3`: Caddy started in front, then the URLs announced and the held lines let go. */
async function startFrontIfAsked(
  ctx: ServeServer,
  proxy: DevServerProxy | undefined,
  ipv6: boolean,
  announce: () => void,
): Promise<RunningServe['front']> {
  const { http3, signal } = ctx.options
  if (http3 === undefined || ctx.certificate === undefined) return undefined
  const innerPort = (ctx.server.address() as AddressInfo).port
  const log: FrontLog = http3.log ?? proxy?.logger ?? consoleFrontLog
  let front: RunningServe['front']
  try {
    const started = await startHttp3Front({
      caddy: http3.caddy,
      port: ctx.options.port,
      host: ctx.options.host,
      innerPort,
      certificateDir: ctx.certificate.dir,
      token: ctx.token,
      ipv6Loopback: ipv6,
      log,
      ...(signal === undefined ? {} : { signal }),
    })
    ctx.publicPort = started.port
    front = { ...started.front, innerPort }
  } catch (error) {
    await ctx.connections.close(0)
    await proxy?.close()
    throw error
  }
  announce()
  ctx.held?.release()
  return front
}

/** The running `serve`, and its `close`: Caddy first, then our connections, then the proxy. */
function runningServe(
  ctx: ServeServer,
  proxy: DevServerProxy | undefined,
  front: RunningServe['front'],
): RunningServe {
  const { port, urls } = addressOf(ctx)
  const url = urls.local[0] ?? urls.network[0] ?? `http://${ctx.options.host}:${port}/`
  const { server, certificate, connections } = ctx
  return {
    url,
    urls,
    port,
    server,
    proxy,
    certificate,
    connections,
    front,
    async close(graceMs = 3000) {
      // Caddy first: it stops taking requests and finishes its own in flight (grace_period).
      await front?.stop()
      await connections.close(graceMs)
      await proxy?.close()
    },
  }
}
