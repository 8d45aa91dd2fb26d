/**
 * Edit distance between two strings (optimal string alignment: insertions, deletions,
 * substitutions and transpositions of adjacent characters each cost 1), so both `chageOrigin`
 * (a missing letter) and `chnageOrigin` (two swapped letters) are one edit from `changeOrigin`.
 *
 * @example
 * editDistance('chageOrigin', 'changeOrigin') // 1
 */
export function editDistance(a: string, b: string): number {
  // Three rolling rows: the transposition step looks two rows back.
  let previous2: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (previous2[j - 2] as number) + 1)
      }
      current.push(best)
    }
    previous2 = previous
    previous = current
  }
  return previous[b.length] as number
}

/**
 * The candidate closest to `input`, compared case-insensitively, when it is close enough to
 * be a typo: at most one edit for names up to five characters, and a third of the length (rounded down) for
 * longer ones. Ties go to the earlier candidate. `undefined` when nothing is close.
 *
 * @example
 * didYouMean('chageOrigin', ['target', 'changeOrigin']) // 'changeOrigin'
 * didYouMean('bogus', ['target', 'changeOrigin'])       // undefined
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const lowered = input.toLowerCase()
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = editDistance(lowered, candidate.toLowerCase())
    const allowed = Math.max(1, Math.floor(candidate.length / 3))
    if (distance <= allowed && distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}
