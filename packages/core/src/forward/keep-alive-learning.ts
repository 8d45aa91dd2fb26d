/** What a {@link KeepAliveLearner} has learned of one target. */
export interface KeepAliveLearner {
  /** Milliseconds an idle connection to the target is kept: the default until a lower one is learned. */
  readonly timeout: number
  /**
   * Takes one idle close (how long the connection had been idle, in milliseconds; `at` when it
   * happened, `performance.now()` by default) and returns `true` when the timeout was lowered by it.
   */
  observe(idleMs: number, at?: number): boolean
}

/** Closes closer together than this are one event (a restart, a burst's connections timing out together). */
const SAME_MOMENT_MS = 50

/** Whether two idle closes tell the same timeout: within a quarter of each other, or 5 ms for short ones. */
function agree(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(5, 0.25 * Math.max(a, b))
}

/**
 * How long to keep idle connections to a target that closes them after `closesAfter` ms: well
 * before it does. undici's timers fire up to about half a second late past one second (they tick
 * coarsely), so long timeouts keep a second's margin; short ones, where Node's own timers are
 * used, keep half.
 */
function keepBelow(closesAfter: number): number {
  return Math.max(1, closesAfter >= 2_000 ? closesAfter - 1_000 : closesAfter / 2)
}

/**
 * Learns a target's idle timeout from the idle closes its connections see, for targets that send
 * no `Keep-Alive: timeout=` hint (undici honours a hint by itself). Reusing a connection the
 * target is closing at that instant fails the request (the keep-alive race, RFC 9112 section
 * 9.3.1), so the pool should stop reusing connections before the target closes them.
 *
 * One close could be a restart of the target rather than its timeout, so the timeout is lowered
 * only when two closes at different moments agree (a restart closes every idle connection at
 * once), and only ever lowered (by a fifth at least each time, so a target causes a handful of
 * changes at most).
 *
 * @example
 * const learner = createKeepAliveLearner(4000)
 * learner.observe(101) // false: one close is not a pattern yet
 * learner.observe(99) // true, a moment later
 * learner.timeout // 49.5
 */
export function createKeepAliveLearner(initial: number): KeepAliveLearner {
  let timeout = initial
  let previous: { idleMs: number; at: number } | undefined
  return {
    get timeout() {
      return timeout
    },
    observe(idleMs, at = performance.now()) {
      const last = previous
      if (last !== undefined && at - last.at < SAME_MOMENT_MS) return false
      previous = { idleMs, at }
      if (last === undefined || !agree(last.idleMs, idleMs)) return false
      const learned = keepBelow(Math.min(last.idleMs, idleMs))
      if (learned > timeout * 0.8) return false
      timeout = learned
      return true
    },
  }
}
