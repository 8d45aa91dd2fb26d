import { editDistance } from '@cors-dev-proxy/core/adapter'

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
    // The core's edit distance (a swap of two neighbouring letters is one edit, so `--prot` is
    // one edit from `--port`), the one its config's did-you-mean uses.
    const d = editDistance(lowered, name)
    if (d <= Math.max(1, Math.floor(name.length / 3)) && d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  if (best === undefined && lowered.length >= 3) best = known.find((name) => name.startsWith(lowered))
  return best
}
