import { once } from 'node:events'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { corsDevProxy } from '@cors-dev-proxy/vite'
import type { InlineConfig, Logger, PreviewServer, ViteDevServer } from 'vite8'
import type { TestCertificate } from '../support/tls.js'
import { type AdapterHarness, createLogCapture, type DevServerHandle } from './adapter-harness.js'

/** Which installed Vite the suite runs against: `vite6`, `vite7` or `vite8` (npm aliases). */
export const VITE_ALIAS = process.env.CDP_VITE ?? 'vite8'

/** The Vite module under test. Its types are Vite 8's; the API used here is the same in 6 and 7. */
export const vite = (await import(VITE_ALIAS)) as typeof import('vite8')

/** What a Vite test server is started with. */
export interface ViteSetup {
  routes: Routes
  options?: CorsDevProxyOptions
  tls?: TestCertificate
  /** Extra Vite config merged in (e.g. `server.proxy`). */
  config?: InlineConfig
  /** `vite preview` instead of the dev server. */
  preview?: boolean
}

/** A running Vite server with the plugin, and what tests need from it. */
export interface ViteHandle extends DevServerHandle {
  server: ViteDevServer | PreviewServer
}

function captureLogger(push: (level: 'info' | 'warn' | 'error', message: unknown) => void): Logger {
  const warned = new Set<string>()
  return {
    info: (message) => push('info', message),
    warn: (message) => push('warn', message),
    warnOnce(message) {
      if (warned.has(message)) return
      warned.add(message)
      push('warn', message)
    },
    error: (message) => push('error', message),
    clearScreen() {},
    hasErrorLogged: () => false,
    hasWarned: false,
  }
}

/**
 * Starts `vite` (or `vite preview`) on 127.0.0.1, port 0, in a temporary root with one
 * `index.html` (and a built copy for preview), the dependency optimizer off, and every log
 * line captured through Vite's `customLogger`.
 */
export async function startVite(setup: ViteSetup): Promise<ViteHandle> {
  const capture = createLogCapture()
  const root = await mkdtemp(join(tmpdir(), 'cdp-vite-'))
  await writeFile(join(root, 'index.html'), '<!doctype html><title>fixture</title>')
  await mkdir(join(root, 'dist'))
  await writeFile(join(root, 'dist', 'index.html'), '<!doctype html><title>built fixture</title>')
  const https = setup.tls ? { cert: setup.tls.cert, key: setup.tls.key } : undefined
  const listen = { host: '127.0.0.1', port: 0, strictPort: true, https }
  const config: InlineConfig = vite.mergeConfig(
    {
      configFile: false,
      root,
      cacheDir: join(root, '.vite'),
      logLevel: 'info',
      clearScreen: false,
      customLogger: captureLogger(capture.push),
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { ...listen, watch: null },
      preview: listen,
      plugins: [corsDevProxy(setup.routes, setup.options) as never],
    } satisfies InlineConfig,
    setup.config ?? {},
  )
  let server: ViteDevServer | PreviewServer
  if (setup.preview) {
    server = await vite.preview(config)
  } else {
    const dev = await vite.createServer(config)
    // Vite 6 and 7 read `server.port: 0` as "not set" and listen on 5173, which another dev
    // server on a shared machine may hold. Vite wraps `httpServer.listen` to initialize the
    // server first, so listening on an ephemeral port directly is what `dev.listen()` would do.
    const listening = once(dev.httpServer!, 'listening')
    dev.httpServer!.listen(0, '127.0.0.1')
    await listening
    server = dev
  }
  const { port } = server.httpServer!.address() as AddressInfo
  return {
    server,
    origin: `${https ? 'https' : 'http'}://127.0.0.1:${port}`,
    logs: capture.logs,
    async close() {
      await server.close()
      await rm(root, { recursive: true, force: true })
    },
  }
}

/** The shared adapter suite's view of Vite. */
export const viteHarness: AdapterHarness = {
  name: `${VITE_ALIAS} ${vite.version}`,
  start: (setup) => startVite(setup),
}
