export { consoleLogSink } from '../config/defaults.js'

import pc from 'picocolors'
import type { LogLevel, LogSink } from '../config/options.js'

/**
 * The `[cors-dev-proxy]` log: level filtering, a coloured tag, and de-duplication so a
 * failing cause (a dead target, a blocked origin) gives one line, not one per request.
 */
export interface Logger {
  /** The level lines are filtered at. */
  readonly level: LogLevel
  /** Detail for troubleshooting (written to the sink's `info`, shown at level `debug` only). */
  debug(message: string): void
  info(message: string): void
  /** With a `key`, later warnings with the same key are counted instead of printed. */
  warn(message: string, key?: string): void
  /** With a `key`, later errors with the same key are counted instead of printed. */
  error(message: string, key?: string): void
  /** Prints the pending "(repeated N times)" summaries and forgets the keys (called on close). */
  flush(): void
}

/** Rank of each level: a line is printed when its rank is at most the logger's. */
const RANK: Readonly<Record<LogLevel, number>> = Object.freeze({
  silent: 0,
  error: 1,
  warn: 2,
  info: 3,
  debug: 4,
})

/** Keys remembered at most; the oldest is forgotten first, so per-request keys cannot grow memory. */
const MAX_KEYS = 256

type Severity = 'debug' | 'info' | 'warn' | 'error'

interface KeyState {
  severity: 'warn' | 'error'
  message: string
  repeats: number
}

/**
 * Creates the logger. Colours follow picocolors' own detection (`NO_COLOR`, `FORCE_COLOR`,
 * TTY), so a dev server piped to a file gets plain text.
 *
 * De-duplication: a `warn`/`error` with a `key` is printed the first time only; repeats are
 * counted, and before the next line that *is* printed (another key, or no key), and on
 * `flush()`, each counted key gets one summary line `<message> (repeated N times)`. Keys are
 * remembered until `flush()` (at most 256, oldest first out).
 *
 * @example
 * const logger = createLogger('info', consoleLogSink)
 * logger.error('connection refused: is the server at http://127.0.0.1:3000 running?', 'ECONNREFUSED http://127.0.0.1:3000')
 */
export function createLogger(level: LogLevel, sink: LogSink): Logger {
  const rank = RANK[level]
  const tags: Readonly<Record<Severity, string>> = {
    debug: pc.gray('[cors-dev-proxy]'),
    info: pc.cyan('[cors-dev-proxy]'),
    warn: pc.yellow('[cors-dev-proxy]'),
    error: pc.red('[cors-dev-proxy]'),
  }
  const keys = new Map<string, KeyState>()

  function write(severity: Severity, message: string): void {
    const line = `${tags[severity]} ${severity === 'debug' ? pc.dim(message) : message}`
    if (severity === 'error') sink.error(line)
    else if (severity === 'warn') sink.warn(line)
    else sink.info(line)
  }

  function printSummaries(): void {
    for (const state of keys.values()) {
      if (state.repeats === 0) continue
      write(
        state.severity,
        `${state.message} ${pc.dim(`(repeated ${state.repeats} ${state.repeats === 1 ? 'time' : 'times'})`)}`,
      )
      state.repeats = 0
    }
  }

  function log(severity: Severity, message: string, key?: string): void {
    if (RANK[severity] > rank) return
    if (key !== undefined && (severity === 'warn' || severity === 'error')) {
      const known = keys.get(key)
      if (known) {
        known.repeats++
        return
      }
      printSummaries()
      if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string)
      keys.set(key, { severity, message, repeats: 0 })
    } else {
      printSummaries()
    }
    write(severity, message)
  }

  return Object.freeze({
    level,
    debug: (message: string) => log('debug', message),
    info: (message: string) => log('info', message),
    warn: (message: string, key?: string) => log('warn', message, key),
    error: (message: string, key?: string) => log('error', message, key),
    flush() {
      printSummaries()
      keys.clear()
    },
  })
}
