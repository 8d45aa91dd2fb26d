/*
 * log/: what the proxy says. One logger per proxy (here): a `[cors-dev-proxy]` tag, level
 * filtering, one line per event, and `limited` lines for what a client can repeat at will, one
 * per route and cause every 10 s with a count of the rest (rate-limit.ts). Beside it the routes
 * line and the debug line of each answered request (describe-routes.ts), and the hint for a
 * server-side `fetch('/api/…')` that missed the proxy (server-fetch-hint.ts), and a route's own
 * http-proxy-middleware `logger`, as hooks added to the route at start-up (request-logger.ts).
 * Lines say what happened and how to fix it; nothing here decides anything about a request.
 */
export { consoleLogSink } from '../config/defaults.js'

import pc from 'picocolors'
import type { LogLevel, LogSink } from '../config/options.js'
import { createRateLimit, foldedNote } from './rate-limit.js'

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
  /**
   * A line a client can cause at will (a forged `Origin`, a refused upgrade, a user function
   * that throws on some input): at most one per `key` every 10 s; the ones in between are
   * counted, and the key's next line, or `flush()`, says how many (`… and 299 more like it in
   * the last 10 s`). `key` names a route and a cause, never request data, so a client cannot
   * open new keys. `message` is only called when the line prints.
   */
  limited(severity: 'warn' | 'error', key: string, message: () => string): void
  /** Prints the pending "(repeated N times)" and folded-line summaries and forgets the keys (called on close). */
  flush(): void
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /**
   * The clock of `limited` lines' windows, in milliseconds; tests pass their own.
   * @default Date.now
   */
  readonly now?: () => number
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

/** The first line of a message, for the summary of the lines folded after it. */
function firstLine(message: string): string {
  const end = message.indexOf('\n')
  return end === -1 ? message : message.slice(0, end)
}

/** The `[cors-dev-proxy]` tag in each severity's colour, made per logger as before (picocolors decides colour when it loads). */
function severityTags(): Readonly<Record<Severity, string>> {
  return {
    debug: pc.gray('[cors-dev-proxy]'),
    info: pc.cyan('[cors-dev-proxy]'),
    warn: pc.yellow('[cors-dev-proxy]'),
    error: pc.red('[cors-dev-proxy]'),
  }
}

/**
 * Creates the logger. Colours follow picocolors' own detection (`NO_COLOR`, `FORCE_COLOR`,
 * TTY), so a dev server piped to a file gets plain text.
 *
 * De-duplication: a `warn`/`error` with a `key` is printed the first time only; repeats are
 * counted, and before the next line that *is* printed (another key, or no key), and on
 * `flush()`, each counted key gets one summary line `<message> (repeated N times)`. Keys are
 * remembered until `flush()` (at most 256, oldest first out). `limited` lines are held to one
 * per key every 10 s instead (see `createRateLimit`).
 *
 * @example
 * const logger = createLogger('info', consoleLogSink)
 * logger.error('connection refused: is the server at http://127.0.0.1:3000 running?', 'ECONNREFUSED http://127.0.0.1:3000')
 */
export function createLogger(level: LogLevel, sink: LogSink, options: LoggerOptions = {}): Logger {
  const rank = RANK[level]
  const tags = severityTags()
  const keys = new Map<string, KeyState>()
  const limit = createRateLimit({ now: options.now })

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
    limited(severity: 'warn' | 'error', key: string, message: () => string) {
      if (RANK[severity] > rank) return
      let text = ''
      // The label carries the severity, so the summary on flush goes to the same stream.
      const folded = limit.take(key, () => {
        text = message()
        return `${severity} ${firstLine(text)}`
      })
      if (folded === undefined) return
      printSummaries()
      if (folded.count === 0) {
        write(severity, text)
        return
      }
      // The note goes on the headline, before the detail lines a report may have.
      const head = firstLine(text)
      write(severity, `${head}${pc.dim(foldedNote(folded))}${text.slice(head.length)}`)
    },
    flush() {
      printSummaries()
      keys.clear()
      for (const folded of limit.drain()) {
        const space = folded.label.indexOf(' ')
        const severity = folded.label.slice(0, space) as 'warn' | 'error'
        write(severity, `${folded.label.slice(space + 1)}${pc.dim(foldedNote(folded))}`)
      }
    },
  })
}
