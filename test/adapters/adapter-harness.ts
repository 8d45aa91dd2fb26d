import { stripVTControlCharacters } from 'node:util'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import type { TestCertificate } from '../support/tls.js'

/** How a suite asks an adapter for a running dev server. */
export interface StartDevServer {
  routes: Routes
  options?: CorsDevProxyOptions
  /** Serve over TLS with this certificate: HTTP/2 with HTTP/1.1 fallback, as browsers get it. */
  tls?: TestCertificate
}

/** A dev server started on 127.0.0.1, port 0, with the adapter installed. */
export interface DevServerHandle {
  /** `http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`. */
  readonly origin: string
  /** Everything written to the dev server's own logger, colours removed. */
  readonly logs: string[]
  close(): Promise<void>
}

/** One adapter (one dev server and version) under test. */
export interface AdapterHarness {
  /** Shown in test names, e.g. `vite 7.3.8`. */
  readonly name: string
  start(options: StartDevServer): Promise<DevServerHandle>
}

/** The `ws:`/`wss:` URL of a dev server path. */
export function webSocketUrl(server: DevServerHandle, path: string): string {
  return `${server.origin.replace(/^http/, 'ws')}${path}`
}

/** Collects log lines; `info`, `warn` and `error` prefix the level so tests can tell them apart. */
export function createLogCapture(): {
  logs: string[]
  push(level: 'info' | 'warn' | 'error', message: unknown): void
} {
  const logs: string[] = []
  return {
    logs,
    push(level, message) {
      logs.push(`${level}: ${stripVTControlCharacters(String(message))}`)
    },
  }
}

/**
 * A console for webpack's and Rspack's infrastructure logger (`infrastructureLogging.console`),
 * writing into a capture: `info`, `log` and `debug` lines as `info`.
 */
export function captureConsole(push: (level: 'info' | 'warn' | 'error', message: unknown) => void): Console {
  const line =
    (level: 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      push(level, args.join(' '))
  const ignore = () => {}
  return {
    info: line('info'),
    log: line('info'),
    debug: line('info'),
    warn: line('warn'),
    error: line('error'),
    trace: ignore,
    group: ignore,
    groupCollapsed: ignore,
    groupEnd: ignore,
    clear: ignore,
    profile: ignore,
    profileEnd: ignore,
  } as unknown as Console
}
