import type { LogSink } from '@cors-dev-proxy/core'

/** The methods of Nuxt's logger the sink uses: consola's (kit 4.5) and kit 4.6's own logger both have them. */
export interface NuxtLogMethods {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** The escape character that starts a colour code (written out: Biome refuses it in a RegExp literal). */
const ESC = String.fromCharCode(0x1b)
/** The `[cors-dev-proxy]` tag the core puts first on each line, coloured or not. */
const CORE_TAG = new RegExp(`^(?:${ESC}\\[[\\d;]*m)?\\[cors-dev-proxy\\](?:${ESC}\\[[\\d;]*m)? `)

/**
 * Writes cors-dev-proxy's lines through Nuxt's logger (`useLogger('cors-dev-proxy')` from
 * @nuxt/kit), so they look like the other modules' lines and follow Nuxt's `logLevel`. The
 * logger prints its own `[cors-dev-proxy]` tag, so the core's is taken off the line.
 *
 * @example
 * createDevServerProxy(resolved, { sink: nuxtLogSink(useLogger('cors-dev-proxy')) })
 */
export function nuxtLogSink(logger: NuxtLogMethods): LogSink {
  const untagged = (line: string) => line.replace(CORE_TAG, '')
  return Object.freeze({
    info: (message: string) => logger.info(untagged(message)),
    warn: (message: string) => logger.warn(untagged(message)),
    error: (message: string) => logger.error(untagged(message)),
  })
}
