import type { LogSink } from '@cors-dev-proxy/core'
import type { DevServerLike } from './dev-server-types.js'

/**
 * Writes through webpack's infrastructure logger, so `infrastructureLogging` applies to these
 * lines too; `undefined` when the dev server has no logger.
 *
 * @example
 * createDevServerProxy(resolved, { sink: devServerLogSink(devServer), server: devServer.server })
 */
export function devServerLogSink(devServer: DevServerLike): LogSink | undefined {
  const logger = devServer.logger
  if (!logger) return undefined
  return Object.freeze({
    info: (message: string) => logger.info(message),
    warn: (message: string) => logger.warn(message),
    error: (message: string) => logger.error(message),
  })
}
