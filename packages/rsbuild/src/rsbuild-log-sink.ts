import type { LogSink } from '@cors-dev-proxy/core'

/** The part of Rsbuild's logger (`api.logger`, rslog) the sink writes through. */
export interface RsbuildLogger {
  info(message?: unknown): void
  warn(message?: unknown): void
  error(message?: unknown): void
}

/**
 * Writes cors-dev-proxy's lines through Rsbuild's logger (`api.logger`), so they follow
 * `logLevel` and `customLogger` like Rsbuild's own, with its `info`/`warn`/`error` labels.
 *
 * @example
 * createDevServerProxy(resolved, { sink: rsbuildLogSink(api.logger), server: server.httpServer })
 */
export function rsbuildLogSink(logger: RsbuildLogger): LogSink {
  return Object.freeze({
    info: (message: string) => logger.info(message),
    warn: (message: string) => logger.warn(message),
    error: (message: string) => logger.error(message),
  })
}
