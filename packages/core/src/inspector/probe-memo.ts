/** Options of {@link createProbeMemo}. */
export interface ProbeMemoOptions {
  /** Milliseconds an explanation is reused for. @default 30000 */
  readonly ttlMs?: number
  /** Explanations kept at most (the oldest goes first). @default 256 */
  readonly size?: number
  /** The clock, in milliseconds. @default Date.now */
  readonly now?: () => number
}

/** One remembered explanation and when it was made. */
export interface MemoEntry<T> {
  readonly value: T
  /** When it settled, by the memo's clock. */
  readonly at: number
}

/** The last explanations of each call, for a short time. */
export interface ProbeMemo<T> {
  /**
   * The explanation of `key`: the remembered one when it is recent (`reused: true`), or
   * `make()`'s, shared by every caller while it runs. A `make()` that resolves with `keep: false`
   * (nothing was probed) or rejects is not remembered.
   */
  get(
    key: string,
    make: () => Promise<{ value: T; keep: boolean }>,
  ): Promise<{ value: T; reused: boolean; at: number }>
  /** The last explanation remembered for `key`, expired or not. */
  last(key: string): MemoEntry<T> | undefined
  /** The remembered explanations, newest first, expired ones included until they are pushed out. */
  list(): MemoEntry<T>[]
}

/**
 * Creates the memo of the overlay's explanations: the same call (URL, method, header names...)
 * is probed at most once per `ttlMs`; its repeats, and the calls asked about while its probe
 * runs, get the same explanation. One per proxy.
 *
 * @example
 * const memo = createProbeMemo<CallExplanation>({ ttlMs: 30_000 })
 * const { value, reused } = await memo.get(key, async () => ({ value: await explain(), keep: true }))
 */
export function createProbeMemo<T>(options: ProbeMemoOptions = {}): ProbeMemo<T> {
  const ttlMs = options.ttlMs ?? 30_000
  const size = options.size ?? 256
  const now = options.now ?? Date.now
  const settled = new Map<string, MemoEntry<T>>()
  const running = new Map<string, Promise<{ value: T; keep: boolean; at: number }>>()

  function remember(key: string, entry: MemoEntry<T>): void {
    // Map order is insertion order: re-inserting makes it the newest.
    settled.delete(key)
    settled.set(key, entry)
    for (const oldest of settled.keys()) {
      if (settled.size <= size) break
      settled.delete(oldest)
    }
  }

  return {
    async get(key, make) {
      const known = settled.get(key)
      if (known !== undefined && now() - known.at < ttlMs)
        return { value: known.value, reused: true, at: known.at }
      const pending = running.get(key)
      if (pending !== undefined) {
        const shared = await pending
        return { value: shared.value, reused: true, at: shared.at }
      }
      const made = make().then((result) => ({ ...result, at: now() }))
      running.set(key, made)
      try {
        const result = await made
        if (result.keep) remember(key, { value: result.value, at: result.at })
        return { value: result.value, reused: false, at: result.at }
      } finally {
        running.delete(key)
      }
    },
    last: (key) => settled.get(key),
    list: () => [...settled.values()].reverse(),
  }
}
