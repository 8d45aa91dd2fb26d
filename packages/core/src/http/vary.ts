/**
 * `Vary` lists (RFC 9110 §12.5.5): a comma-separated list of request field names, compared
 * case-insensitively, or `*`, which says the answer varies on more than fields and stands alone.
 * Shared by every place that adds to `Vary` (the CORS middleware and route step, the mock's
 * CORS modes), so a name is never repeated and `*` is never extended.
 */

/**
 * Splits a `Vary` value (a header value, an array of them as `getHeader` may return, or
 * nothing) into its field names, trimmed, empty items dropped.
 *
 * @example
 * varyNames('Accept-Encoding, Origin') // ['Accept-Encoding', 'Origin']
 */
export function varyNames(value: unknown): string[] {
  if (value === undefined || value === null) return []
  const text = Array.isArray(value) ? value.join(',') : String(value)
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/**
 * Merges `Vary` lists, in order, keeping the first spelling of each name; `*` in any list
 * makes the result `*`. `undefined` when there is no name at all.
 *
 * @example
 * mergeVary(['Accept-Encoding', 'origin'], ['Origin']) // 'Accept-Encoding, origin'
 */
export function mergeVary(...lists: ReadonlyArray<readonly string[]>): string | undefined {
  const merged: string[] = []
  const seen = new Set<string>()
  for (const list of lists) {
    for (const name of list) {
      if (name === '*') return '*'
      const lower = name.toLowerCase()
      if (seen.has(lower)) continue
      seen.add(lower)
      merged.push(name)
    }
  }
  return merged.length === 0 ? undefined : merged.join(', ')
}
