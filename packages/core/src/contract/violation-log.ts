import type { Logger } from '../log/logger.js'
import type { Exchange, ExchangeViolation } from '../pipeline/exchange.js'

/*
 * The distinct violations a proxy's routes have seen, for `GET /__cors-dev-proxy/violations`
 * and the log: one entry per route, side, operation, pointer and message, with how often it
 * came and the last exchange that had it. Each entry logs one line when it first comes, through
 * the logger's rate-limited lines, so a page that repeats the call does not repeat the line.
 */

/** At most this many distinct violations are kept; the oldest goes first. */
const MAX_ENTRIES = 500

/** One distinct violation and how often it came. */
export interface ViolationEntry {
  /** The route's prefix. */
  readonly route: string
  readonly violation: ExchangeViolation
  count: number
  /** The last exchange that had it (the inspector reads its id). */
  lastExchange: Exchange
  /** When it last came (ms since the epoch). */
  lastAt: number
}

/** The distinct violations of a proxy. */
export interface ViolationLog {
  /** Notes one exchange's violations; a new one logs its line. */
  note(route: string, violations: readonly ExchangeViolation[], exchange: Exchange): void
  /** Logs, once per route and reason, why a part of an exchange was not checked. */
  skipped(route: string, reason: string): void
  /** The entries, oldest first. */
  list(): readonly ViolationEntry[]
  /** A check started (`+1`) or ended (`-1`): the overlay asks again while any is still running. */
  running(change: 1 | -1): void
  /** How many checks are still running (the document may still be loading for the first ones). */
  readonly pending: number
}

/** The log line of a violation: route, operation, side, pointer, message. */
function lineOf(route: string, violation: ExchangeViolation): string {
  const where = violation.pointer === '' ? 'body' : violation.pointer
  return `route '${route}': ${violation.operation} breaks the OpenAPI document in the ${violation.in} at ${where}: ${violation.message}`
}

/**
 * Creates the violation log of a proxy.
 *
 * @example
 * const violations = createViolationLog(logger)
 * violations.note('/api', [{ in: 'response', operation: 'GET /pets/{id}', pointer: '/name', message: '…' }], exchange)
 */
export function createViolationLog(logger: Logger): ViolationLog {
  const entries = new Map<string, ViolationEntry>()
  let pending = 0
  return {
    get pending() {
      return pending
    },
    running(change) {
      pending = Math.max(0, pending + change)
    },
    note(route, violations, exchange) {
      for (const violation of violations) {
        const key = `${route}\n${violation.in}\n${violation.operation}\n${violation.pointer}\n${violation.message}`
        const known = entries.get(key)
        if (known !== undefined) {
          known.count += 1
          known.lastExchange = exchange
          known.lastAt = Date.now()
          continue
        }
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string)
        entries.set(key, { route, violation, count: 1, lastExchange: exchange, lastAt: Date.now() })
        logger.limited('warn', `openapi ${key}`, () => lineOf(route, violation))
      }
    },
    skipped(route, reason) {
      logger.limited(
        'warn',
        `openapi skipped ${route} ${reason}`,
        () => `route '${route}': part of an exchange was not checked against the OpenAPI document: ${reason}`,
      )
    },
    list: () => [...entries.values()],
  }
}
