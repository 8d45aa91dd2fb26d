import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { pluginCorsDevProxy } from '@cors-dev-proxy/rsbuild'
import {
  createLogger,
  createRsbuild,
  type RsbuildConfig,
  type RsbuildDevServer,
  type RsbuildPlugin,
  type RsbuildPreviewServer,
  version,
} from '@rsbuild/core'
import type { TestCertificate } from '../support/tls.js'
import { type AdapterHarness, createLogCapture, type DevServerHandle } from './adapter-harness.js'

/** What an Rsbuild test server is started with. */
export interface RsbuildSetup {
  routes: Routes
  options?: CorsDevProxyOptions
  tls?: TestCertificate
  /**
   * `server.allowedHosts`: Rsbuild's host check (DNS-rebinding protection) is on with a list,
   * off with `true` (Rsbuild's default).
   * @default ['localhost']
   */
  allowedHosts?: string[] | true
  /** Extra Rsbuild config, spread over the test's own (e.g. `server.proxy`, `dev.client`). */
  config?: RsbuildConfig
  /** Plugins listed before cors-dev-proxy's. */
  pluginsBefore?: RsbuildPlugin[]
  /** `rsbuild preview` of a build instead of the dev server. */
  preview?: boolean
}

/** A running Rsbuild server with the plugin, and what tests need from it. */
export interface RsbuildHandle extends DevServerHandle {
  server: RsbuildDevServer | RsbuildPreviewServer
  /** The token Rsbuild's HMR client sends (`?token=`), `undefined` under `preview`. */
  hmrToken: string | undefined
}

/** The one-module app Rsbuild builds: it loads Rsbuild's HMR client in development. */
const ENTRY = "document.body.textContent = 'fixture'\n"

/** A console for rslog's `createLogger`, writing into the capture (info and log lines as `info`). */
function captureConsole(push: (level: 'info' | 'warn' | 'error', message: unknown) => void) {
  return {
    log: (...args: unknown[]) => push('info', args.join(' ')),
    warn: (...args: unknown[]) => push('warn', args.join(' ')),
    error: (...args: unknown[]) => push('error', args.join(' ')),
  }
}

/**
 * Starts `rsbuild dev` in-process (`createRsbuild` + `startDevServer`) on 127.0.0.1, port 0, in a
 * temporary root holding `src/index.js`, with every log line captured through `customLogger`;
 * or builds that root and starts `rsbuild preview` on it. With `tls`, `server.https`: HTTP/2 with
 * HTTP/1.1 on the same port, as Rsbuild serves it.
 */
export async function startRsbuild(setup: RsbuildSetup): Promise<RsbuildHandle> {
  const capture = createLogCapture()
  const root = await mkdtemp(join(tmpdir(), 'cdp-rsbuild-'))
  await mkdir(join(root, 'src'))
  await writeFile(join(root, 'src', 'index.js'), ENTRY)
  let hmrToken: string | undefined
  const tokenReader: RsbuildPlugin = {
    name: 'test:hmr-token',
    setup(api) {
      api.onBeforeStartDevServer(({ environments }) => {
        hmrToken = Object.values(environments)[0]?.webSocketToken
      })
    },
  }
  const { config = {} } = setup
  const rsbuild = await createRsbuild({
    cwd: root,
    loadEnv: false,
    rsbuildConfig: {
      ...config,
      customLogger: createLogger({ level: 'info', console: captureConsole(capture.push) }),
      server: {
        host: '127.0.0.1',
        port: 0,
        printUrls: false,
        allowedHosts: setup.allowedHosts ?? ['localhost'],
        ...(setup.tls ? { https: { cert: setup.tls.cert, key: setup.tls.key } } : {}),
        ...config.server,
      },
      dev: { cliShortcuts: false, ...config.dev },
      performance: { printFileSize: false, ...config.performance },
      plugins: [
        ...(setup.pluginsBefore ?? []),
        pluginCorsDevProxy(setup.routes, setup.options),
        tokenReader,
        ...(config.plugins ?? []),
      ],
    },
  })
  let server: RsbuildDevServer | RsbuildPreviewServer
  try {
    if (setup.preview) {
      await rsbuild.build()
      server = (await rsbuild.preview()).server
    } else {
      server = (await rsbuild.startDevServer()).server
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true })
    throw error
  }
  const { port } = server.httpServer!.address() as AddressInfo
  return {
    server,
    hmrToken,
    origin: `${setup.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    logs: capture.logs,
    async close() {
      await server.close()
      await rm(root, { recursive: true, force: true })
    },
  }
}

/** The shared adapter suite's view of Rsbuild (its host check on, as the suite expects one). */
export const rsbuildHarness: AdapterHarness = {
  name: `rsbuild ${version}`,
  start: (setup) => startRsbuild(setup),
}
