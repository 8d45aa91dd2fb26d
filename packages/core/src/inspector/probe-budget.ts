/** Options of {@link createProbeBudget}. */
export interface ProbeBudgetOptions {
  /** Requests the probe may send to one host within `windowMs`. @default 10 */
  readonly limit?: number
  /** The window, in milliseconds. @default 60000 */
  readonly windowMs?: number
  /** The clock, in milliseconds. @default Date.now */
  readonly now?: () => number
}

/** The answer of {@link ProbeBudget.take}. */
export type ProbeGrant =
  | { readonly granted: true }
  | { readonly granted: false; readonly used: number; readonly retryInMs: number }

/** How many requests the explanation probe may still send to each host. */
export interface ProbeBudget {
  /** The limit per host and window. */
  readonly limit: number
  /** The window, in milliseconds. */
  readonly windowMs: number
  /** Reserves `count` requests to `host` if all fit in the window's budget, none otherwise. */
  take(host: string, count: number): ProbeGrant
  /** Returns `count` requests reserved but not sent (the probe stopped early). */
  giveBack(host: string, count: number): void
}

/**
 * Creates the per-host budget of the overlay's explanation probe: at most `limit` requests
 * (each OPTIONS, GET or HEAD counts) to one host name in any `windowMs`, a sliding window, so a
 * page that fails in a loop cannot make the dev server hammer a server. Keyed by host name, ports
 * aside: two servers on one machine share its budget. One per proxy.
 *
 * @example
 * const budget = createProbeBudget({ limit: 10, windowMs: 60_000 })
 * if (budget.take('api.example.test', 2).granted) await probe()
 */
export function createProbeBudget(options: ProbeBudgetOptions = {}): ProbeBudget {
  const limit = options.limit ?? 10
  const windowMs = options.windowMs ?? 60_000
  const now = options.now ?? Date.now
  /** Per host, when each request in the window was reserved, oldest first. */
  const sent = new Map<string, number[]>()

  function recent(host: string, at: number): number[] {
    const times = (sent.get(host) ?? []).filter((time) => at - time < windowMs)
    if (times.length === 0) sent.delete(host)
    else sent.set(host, times)
    return times
  }

  return {
    limit,
    windowMs,
    take(host, count) {
      const at = now()
      const times = recent(host, at)
      if (times.length + count > limit) {
        // The oldest reservations that must expire before `count` more fit.
        const mustExpire = times[times.length + count - limit - 1] ?? at
        return { granted: false, used: times.length, retryInMs: Math.max(0, mustExpire + windowMs - at) }
      }
      for (let index = 0; index < count; index++) times.push(at)
      sent.set(host, times)
      return { granted: true }
    },
    giveBack(host, count) {
      const times = sent.get(host)
      if (times === undefined) return
      times.splice(Math.max(0, times.length - count), count)
      if (times.length === 0) sent.delete(host)
    },
  }
}
