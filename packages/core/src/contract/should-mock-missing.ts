/*
 * When `openapi: { mock: 'missing' }` answers from the document instead of passing the target's
 * answer on: the target has nothing for the operation yet. A status the operation declares is a
 * real answer (a declared 404 is "no such pet"), so only an undeclared 404 or 501, or no answer
 * at all, counts as missing.
 */

/** The statuses that say "not implemented here": 404 Not Found and 501 Not Implemented (RFC 9110 §15.5.5, §15.6.2). */
const MISSING = new Set([404, 501])

/**
 * Whether the operation's answer comes from the document: the target cannot be reached, or it
 * answered 404 or 501 and the operation declares neither that status nor its range (`4XX`,
 * `5XX`; `default` is not a declaration of it).
 *
 * @example
 * shouldMockMissing(['200', '404'], 404) // false: a declared 404 passes through
 * shouldMockMissing(['200'], 404) // true
 * shouldMockMissing(['200'], 'unreachable') // true
 */
export function shouldMockMissing(
  declaredStatuses: readonly string[],
  upstream: number | 'unreachable',
): boolean {
  if (upstream === 'unreachable') return true
  if (!MISSING.has(upstream)) return false
  const exact = String(upstream)
  const range = `${exact[0]}XX`
  return !declaredStatuses.some((status) => status === exact || status.toUpperCase() === range)
}
