import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import { createSecureServer } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import {
  type CorsDevProxyOptions,
  createCorsDevProxy,
  type ProxyRequest,
  type ProxyResponse,
  type Routes,
} from '@cors-dev-proxy/core'
import { startCliServer } from '../../../packages/cli/test/support/cli-process.js'
import { startVite } from '../../adapters/vite-server.js'
import { startWebpackDevServer } from '../../adapters/webpack-server.js'
import { captureLogSink, listen } from '../../support/servers.js'
import { localhostCertificate } from '../../support/tls.js'

/** The four front ends the hostile suites run against. */
export type FrontEndName = 'core' | 'vite' | 'webpack' | 'serve'

/** Every front end, in the order the suites list them. */
export const FRONT_ENDS: readonly FrontEndName[] = ['core', 'vite', 'webpack', 'serve']

/** A running front end on 127.0.0.1 with the routes installed. */
export interface FrontEnd {
  readonly name: FrontEndName
  readonly port: number
  /** `http://127.0.0.1:<port>` or `https://…` with `tls`. */
  readonly origin: string
  readonly tls: boolean
  /** Every log line written so far (colours removed), one entry per line. */
  logs(): string[]
  close(): Promise<void>
}

/** What each front end is started with. */
export interface FrontEndSetup {
  readonly routes: Routes
  readonly options?: CorsDevProxyOptions
  /** HTTP/2 over TLS with HTTP/1.1 fallback (Vite `server.https`, webpack `server: 'http2'`, `serve --https`). */
  readonly tls?: boolean
}

function lines(messages: readonly string[]): string[] {
  return messages.flatMap((message) => stripVTControlCharacters(message).split('\n'))
}

/**
 * The core on a bare `node:http` (or `node:http2` over TLS) server: `createCorsDevProxy` as the
 * whole request handler, its `upgrade` and `connect` listeners wired as the docs' API page shows.
 */
async function startCore(setup: FrontEndSetup): Promise<FrontEnd> {
  const sink = captureLogSink()
  const proxy = createCorsDevProxy(setup.routes, { ...setup.options, logger: sink })
  const handler = (req: ProxyRequest, res: ProxyResponse) => proxy.middleware(req, res)
  const certificate = setup.tls ? await localhostCertificate() : undefined
  const server =
    certificate === undefined
      ? createServer(handler)
      : createSecureServer({ ...certificate, allowHTTP1: true }, handler)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  if (certificate === undefined) server.on('connect', proxy.connect)
  const started = await listen(server, certificate === undefined ? 'http' : 'https')
  return {
    name: 'core',
    port: started.port,
    origin: started.url,
    tls: setup.tls ?? false,
    logs: () => lines(sink.lines.map((line) => line.message)),
    async close() {
      await proxy.close()
      await started.close()
    },
  }
}

async function startViteFrontEnd(setup: FrontEndSetup): Promise<FrontEnd> {
  const tls = setup.tls ? await localhostCertificate() : undefined
  const handle = await startVite({ routes: setup.routes, options: setup.options, tls })
  return {
    name: 'vite',
    port: Number(new URL(handle.origin).port),
    origin: handle.origin,
    tls: tls !== undefined,
    logs: () => lines(handle.logs),
    close: () => handle.close(),
  }
}

async function startWebpackFrontEnd(setup: FrontEndSetup): Promise<FrontEnd> {
  const tls = setup.tls ? await localhostCertificate() : undefined
  const handle = await startWebpackDevServer({ routes: setup.routes, options: setup.options, tls })
  return {
    name: 'webpack',
    port: Number(new URL(handle.origin).port),
    origin: handle.origin,
    tls: tls !== undefined,
    logs: () => lines(handle.logs),
    close: () => handle.close(),
  }
}

/** A configuration as JavaScript source (routes hold only strings, booleans and objects here). */
function configSource(setup: FrontEndSetup): string {
  return `export default ${JSON.stringify({ ...setup.options, routes: setup.routes })}\n`
}

/** The built CLI's `serve` in a child process, reading the routes from a config file. */
async function startServeFrontEnd(setup: FrontEndSetup): Promise<FrontEnd> {
  const folder = await mkdtemp(join(tmpdir(), 'cdp-hostile-'))
  const file = join(folder, 'cors-dev-proxy.config.mjs')
  await writeFile(file, configSource(setup))
  const args = ['serve', '--config', file, '--port', '0', ...(setup.tls ? ['--https'] : [])]
  const serve = await startCliServer(args, { cwd: folder, timeout: 20_000 })
  const port = Number(new URL(serve.origin).port)
  return {
    name: 'serve',
    port,
    origin: serve.origin,
    tls: setup.tls ?? false,
    logs: () => lines([serve.output()]),
    async close() {
      await serve.stop()
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/**
 * Starts one front end with the routes.
 *
 * @example
 * const vite = await startFrontEnd('vite', { routes: { '/api': target.url } })
 */
export function startFrontEnd(name: FrontEndName, setup: FrontEndSetup): Promise<FrontEnd> {
  switch (name) {
    case 'core':
      return startCore(setup)
    case 'vite':
      return startViteFrontEnd(setup)
    case 'webpack':
      return startWebpackFrontEnd(setup)
    case 'serve':
      return startServeFrontEnd(setup)
  }
}

/** The port a server listens on. */
export function portOf(server: { address(): AddressInfo | string | null }): number {
  return (server.address() as AddressInfo).port
}
