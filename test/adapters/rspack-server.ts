import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { corsDevProxy, type WebpackCorsDevProxyOptions } from '@cors-dev-proxy/webpack'
import { type Compiler, type RspackPluginInstance, rspack } from '@rspack/core'
import { RspackDevServer } from '@rspack/dev-server'
import type { TestCertificate } from '../support/tls.js'
import {
  type AdapterHarness,
  captureConsole,
  createLogCapture,
  type DevServerHandle,
} from './adapter-harness.js'
import { WEBPACK_APP } from './webpack-server.js'

/** Its version, for test names. */
const rdsVersion = (
  (await import('@rspack/dev-server/package.json', { with: { type: 'json' } })) as {
    default: { version: string }
  }
).default.version

/** What an @rspack/dev-server test instance is started with. */
export interface RspackSetup {
  routes: Routes
  options?: CorsDevProxyOptions | WebpackCorsDevProxyOptions
  /** `server: 'http2'` (HTTP/1.1 on the same TLS port) with this certificate, on the default connect app. */
  tls?: TestCertificate
  /** Extra `devServer` options (they win over the defaults here). */
  devServer?: Record<string, unknown>
  plugins?: RspackPluginInstance[]
}

/**
 * Starts `@rspack/dev-server` 2 (what `rspack serve` runs, a webpack-dev-server fork on connect)
 * in-process on 127.0.0.1, port 0, building the one-module webpack fixture with `@rspack/core`,
 * with the webpack adapter spread into its options and every infrastructure log line captured.
 */
export async function startRspackDevServer(setup: RspackSetup): Promise<DevServerHandle> {
  const capture = createLogCapture()
  const output = await mkdtemp(join(tmpdir(), 'cdp-rspack-'))
  const compiler: Compiler = rspack({
    mode: 'development',
    context: WEBPACK_APP,
    entry: './index.js',
    output: { path: output },
    devtool: false,
    stats: 'none',
    infrastructureLogging: { level: 'info', console: captureConsole(capture.push) },
    plugins: setup.plugins ?? [],
  })
  const devServer = new RspackDevServer(
    {
      host: '127.0.0.1',
      port: 0,
      static: false,
      open: false,
      setupExitSignals: false,
      server: setup.tls ? { type: 'http2', options: { cert: setup.tls.cert, key: setup.tls.key } } : 'http',
      ...setup.devServer,
      ...corsDevProxy(setup.routes, setup.options),
    },
    compiler,
  )
  const close = async () => {
    await devServer.stop()
    await new Promise<void>((resolve) => compiler.close(() => resolve()))
    await rm(output, { recursive: true, force: true })
  }
  try {
    await devServer.start()
  } catch (error) {
    await close()
    throw error
  }
  const { port } = devServer.server!.address() as AddressInfo
  return { origin: `${setup.tls ? 'https' : 'http'}://127.0.0.1:${port}`, logs: capture.logs, close }
}

/** The shared adapter suite's view of @rspack/dev-server with the webpack adapter. */
export const rspackHarness: AdapterHarness = {
  name: `@rspack/dev-server ${rdsVersion}`,
  start: (setup) => startRspackDevServer(setup),
}
