// The few statistics the benchmark reports: medians and spreads over rounds, and per-round ratios.

/**
 * The q-quantile of `values` with linear interpolation between the closest ranks (q = 0.5 is the
 * median); NaN for no values.
 * @param {readonly number[]} values
 * @param {number} q between 0 and 1
 */
export function quantile(values, q) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low)
}

/** @param {readonly number[]} values */
export const median = (values) => quantile(values, 0.5)

/**
 * A distribution over rounds, as the tables show it: the median, the interquartile range and
 * the extremes.
 * @param {readonly number[]} values
 * @returns {{ median: number, q1: number, q3: number, min: number, max: number, n: number }}
 */
export function spread(values) {
  return {
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: quantile(values, 0),
    max: quantile(values, 1),
    n: values.filter(Number.isFinite).length,
  }
}

/**
 * Combines two per-round series (`a[i]` and `b[i]` measured in the same round) round by round.
 * Pairing within a round is the point of interleaving: what slows the machine down for a while
 * slows both sides of a ratio.
 * @param {readonly number[]} a
 * @param {readonly number[]} b
 * @param {(x: number, y: number) => number} combine
 */
export function perRound(a, b, combine) {
  const out = []
  for (let i = 0; i < Math.min(a.length, b.length); i++) out.push(combine(a[i], b[i]))
  return out
}

/** The per-round ratios `a / b`, summarised. */
export const ratioSpread = (a, b) => spread(perRound(a, b, (x, y) => x / y))

/** The per-round differences `a - b`, summarised. */
export const differenceSpread = (a, b) => spread(perRound(a, b, (x, y) => x - y))
