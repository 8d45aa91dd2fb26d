import type { LogSink } from '@cors-dev-proxy/core'
import type { Logger } from 'vite'

/**
 * Writes cors-dev-proxy's lines through Vite's logger, so they follow `logLevel`,
 * `customLogger` and `clearScreen` like Vite's own, with Vite's timestamp.
 *
 * @example
 * createCorsDevProxy(routes, { logger: viteLogSink(server.config.logger) })
 */
export function viteLogSink(logger: Logger): LogSink {
  const stamped = { timestamp: true }
  return Object.freeze({
    info: (message: string) => logger.info(message, stamped),
    warn: (message: string) => logger.warn(message, stamped),
    error: (message: string) => logger.error(message, stamped),
  })
}
