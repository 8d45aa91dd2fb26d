import type { LogSink } from '@cors-dev-proxy/core'

/** A log sink that holds its lines until `release()`, then writes them and everything after through. */
export interface HeldSink extends LogSink {
  release(): void
}

/**
 * Holds the proxy's first lines (its routes line) until the server's URLs are printed, so the
 * banner reads in Vite's order even when the URLs are known late (behind Caddy, once Caddy serves).
 *
 * @example
 * const sink = holdLines(consoleLogSink)
 * createDevServerProxy(resolved, { sink })
 * // … print the URLs …
 * sink.release()
 */
export function holdLines(target: LogSink): HeldSink {
  let held: Array<[keyof LogSink, string]> | undefined = []
  const write = (level: keyof LogSink) => (message: string) => {
    if (held === undefined) target[level](message)
    else held.push([level, message])
  }
  return {
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    release() {
      const lines = held ?? []
      held = undefined
      for (const [level, message] of lines) target[level](message)
    },
  }
}
