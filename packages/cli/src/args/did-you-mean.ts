/**
 * Edit distance where a swap of two neighbouring letters counts as one edit (optimal string
 * alignment), so `--prot` is one edit from `--port`, as a typo feels.
 */
function distance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const above = rows[i - 1] as number[]
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      )
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      }
      row.push(best)
    }
    rows.push(row)
  }
  return (rows[a.length] as number[])[b.length] as number
}

/**
 * The known name closest to a mistyped one, when it is close enough to be a typo (at most a
 * third of its length, and at least one edit, apart), else `undefined`. A known name that starts
 * with the input (`--cred` for `--credentials`) also counts.
 *
 * @example
 * closestName('prot', ['port', 'host']) // 'port'
 */
export function closestName(input: string, known: readonly string[]): string | undefined {
  const lowered = input.toLowerCase()
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const name of known) {
    const d = distance(lowered, name)
    if (d <= Math.max(1, Math.floor(name.length / 3)) && d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  if (best === undefined && lowered.length >= 3) best = known.find((name) => name.startsWith(lowered))
  return best
}
