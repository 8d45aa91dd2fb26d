/** How often, at most, one key prints a line; what happens for it in between is counted. */
export const LOG_INTERVAL_MS = 10_000

/** Keys remembered at most; the oldest is forgotten first. Keys name a route and a cause, never request data. */
const MAX_KEYS = 256

/** What was held back for a key since its last printed line. */
export interface Folded {
  /** The label the key's last printed line was taken with. */
  readonly label: string
  /** Lines held back since then. */
  readonly count: number
  /** Seconds since then, at least 1. */
  readonly seconds: number
}

/** Options of {@link createRateLimit}. */
export interface RateLimitOptions {
  /**
   * The window: one line per key in any stretch this long.
   * @default 10_000
   */
  readonly intervalMs?: number
  /**
   * The clock, in milliseconds; tests pass their own.
   * @default Date.now
   */
  readonly now?: () => number
}

/** One line per key and window; see {@link createRateLimit}. */
export interface RateLimit {
  /**
   * Asks to print a line for `key` now: `undefined` when it must be held back (it is counted),
   * else what was held back since the key's last line (`count` 0 the first time, `label` that
   * line's). `label` is only called when the line may print; {@link RateLimit.drain} reports
   * with it.
   */
  take(key: string, label: () => string): Folded | undefined
  /** What is still held back, per key with a count, and forgets every key. */
  drain(): Folded[]
}

interface KeyState {
  label: string
  printed: number
  held: number
}

function secondsBetween(from: number, to: number): number {
  return Math.max(1, Math.round((to - from) / 1000))
}

/**
 * Limits log lines a client can cause at will (a forged `Origin` on every request, refused
 * upgrades): the first line of a key prints, the others within `intervalMs` of it are only
 * counted, and the first one after the window prints again, told how many were held back
 * (`… and 299 more like it in the last 10 s`, see {@link foldedNote}). No timer runs: the
 * count comes with the key's next line or with `drain()` (when the proxy closes). The same
 * idea as the upstream failure log (forward/failure-log.ts), for any key.
 *
 * @example
 * const limit = createRateLimit()
 * const folded = limit.take('cors /api missing-allow-origin', () => 'origin refused')
 * if (folded) logger.warn(`origin refused${foldedNote(folded)}`)
 */
export function createRateLimit(options: RateLimitOptions = {}): RateLimit {
  const interval = options.intervalMs ?? LOG_INTERVAL_MS
  const now = options.now ?? Date.now
  const keys = new Map<string, KeyState>()
  return {
    take(key, label) {
      const time = now()
      const known = keys.get(key)
      if (known !== undefined && time - known.printed < interval) {
        known.held++
        return undefined
      }
      const current = label()
      const folded: Folded = {
        label: known?.label ?? current,
        count: known?.held ?? 0,
        seconds: known === undefined ? 0 : secondsBetween(known.printed, time),
      }
      if (known === undefined) {
        if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string)
        keys.set(key, { label: current, printed: time, held: 0 })
      } else {
        known.label = current
        known.printed = time
        known.held = 0
      }
      return folded
    },
    drain() {
      const time = now()
      const pending: Folded[] = []
      for (const state of keys.values()) {
        if (state.held > 0)
          pending.push({
            label: state.label,
            count: state.held,
            seconds: secondsBetween(state.printed, time),
          })
      }
      keys.clear()
      return pending
    },
  }
}

/**
 * The note a line carries for what was held back before it: `''` when nothing was, else
 * ` (… and 299 more like it in the last 10 s)`.
 *
 * @example
 * foldedNote({ label: 'x', count: 299, seconds: 10 }) // ' (… and 299 more like it in the last 10 s)'
 */
export function foldedNote(folded: Folded): string {
  return folded.count === 0 ? '' : ` (… and ${folded.count} more like it in the last ${folded.seconds} s)`
}
