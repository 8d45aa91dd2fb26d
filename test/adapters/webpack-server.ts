import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo, Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import {
  corsDevProxy,
  type WebpackCorsDevProxyOptions,
  type WebpackDevServerSetup,
} from '@cors-dev-proxy/webpack'
import webpack from 'webpack'
import type { TestCertificate } from '../support/tls.js'
import {
  type AdapterHarness,
  captureConsole,
  createLogCapture,
  type DevServerHandle,
} from './adapter-harness.js'

/** connect 3 (its types are not installed): the app webpack-dev-server documents for HTTP/2. */
const connect = createRequire(import.meta.url)('connect') as () => unknown

/** Which installed webpack-dev-server the suite runs against: `wds5` or `wds6` (npm aliases). */
export const WDS_ALIAS = process.env.CDP_WDS ?? 'wds5'

/** The subset of a WebpackDevServer instance the tests use (5 and 6 agree on it). */
export interface WebpackDevServerInstance {
  server?: Server
  start(): Promise<void>
  stop(): Promise<void>
}

type WebpackDevServerClass = new (options: object, compiler: webpack.Compiler) => WebpackDevServerInstance

const wdsModule = (await import(WDS_ALIAS)) as { default: WebpackDevServerClass }
/** The WebpackDevServer class under test. */
export const WebpackDevServer = wdsModule.default
/** Its version, for test names. */
export const wdsVersion = (
  (await import(`${WDS_ALIAS}/package.json`, { with: { type: 'json' } })) as {
    default: { version: string }
  }
).default.version

/** The tiny app webpack builds: one module, so a build takes a fraction of a second. */
export const WEBPACK_APP = fileURLToPath(new URL('../fixtures/webpack-app', import.meta.url))

/** What a webpack-dev-server test instance is started with. */
export interface WebpackSetup {
  routes: Routes
  options?: CorsDevProxyOptions | WebpackCorsDevProxyOptions
  tls?: TestCertificate
  /** `'http2'` (default with `tls`, with a connect app) or `'https'`. */
  tlsType?: 'http2' | 'https'
  /**
   * The app of an `http2` server: connect, as webpack-dev-server documents for HTTP/2, or its
   * default Express, which cors-dev-proxy refuses.
   * @default 'connect'
   */
  http2App?: 'connect' | 'express'
  /** Extra `devServer` options (they win over the defaults here). */
  devServer?: Record<string, unknown>
  /** Extra webpack plugins (e.g. one that holds the build). */
  plugins?: webpack.WebpackPluginInstance[]
  /**
   * Keys written after `...corsDevProxy()` in `devServer`, where they replace its own; given
   * what `corsDevProxy()` returned, so they can call it.
   */
  afterSpread?: (setup: WebpackDevServerSetup) => Record<string, unknown>
}

/** A running webpack-dev-server test instance. */
export interface WebpackDevServerHandle extends DevServerHandle {
  /** `stop()` then `start()` on the same instance, as a restart does; resolves with its new origin. */
  restart(): Promise<string>
}

/**
 * Starts webpack-dev-server on 127.0.0.1, port 0, building the one-module fixture in
 * development mode, with every infrastructure log line captured. With `tls` the server is
 * `http2` on a connect app (webpack-dev-server's documented HTTP/2 set-up), or `https`.
 */
export async function startWebpackDevServer(setup: WebpackSetup): Promise<WebpackDevServerHandle> {
  const capture = createLogCapture()
  const output = await mkdtemp(join(tmpdir(), 'cdp-webpack-'))
  const compiler = webpack({
    mode: 'development',
    context: WEBPACK_APP,
    entry: './index.js',
    output: { path: output },
    devtool: false,
    stats: 'none',
    infrastructureLogging: { level: 'info', console: captureConsole(capture.push) },
    plugins: setup.plugins ?? [],
  })
  const tlsType = setup.tlsType ?? 'http2'
  const proxySetup = corsDevProxy(setup.routes, setup.options)
  const devServer = new WebpackDevServer(
    {
      host: '127.0.0.1',
      port: 0,
      static: false,
      open: false,
      setupExitSignals: false,
      ...(setup.tls
        ? { server: { type: tlsType, options: { cert: setup.tls.cert, key: setup.tls.key } } }
        : { server: 'http' }),
      ...(setup.tls && tlsType === 'http2' && setup.http2App !== 'express' ? { app: () => connect() } : {}),
      ...setup.devServer,
      ...proxySetup,
      ...setup.afterSpread?.(proxySetup),
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
    // webpack-dev-server 5 leaves a refused start half set up (6 stops itself): release it all.
    await close()
    throw error
  }
  const originOf = () =>
    `${setup.tls ? 'https' : 'http'}://127.0.0.1:${(devServer.server!.address() as AddressInfo).port}`
  return {
    origin: originOf(),
    logs: capture.logs,
    close,
    async restart() {
      await devServer.stop()
      await devServer.start()
      return originOf()
    },
  }
}

/** The shared adapter suite's view of webpack-dev-server. */
export const webpackHarness: AdapterHarness = {
  name: `${WDS_ALIAS} ${wdsVersion}`,
  start: (setup) => startWebpackDevServer(setup),
}
