import type { ResolvedMatch } from './options/resolve-match-options.js'
import type { Difference } from './recording-diff.js'

/*
 * How to make a request that no recording matches under `replay: 'only'` find an answer, written
 * as configuration the reader can paste: record it (`record: 'missing'` in place of `replay:
 * 'only'`, which forwards and records only what has no recording), and, when only query keys
 * differ, leave them out of the match (`match: { ignoreQuery }`); when the request only adds body
 * fields, `match: { body: 'subset' }`. Each snippet is a whole, valid route object, as the
 * configuration errors' examples are (config/errors.ts): the route's own target and match rules,
 * with the one change.
 */

/** What a fix needs of the route. */
export interface FixRoute {
  readonly prefix: string
  /** The route's target as written (`http://localhost:3000`), `undefined` when a router or bypass decides. */
  readonly target: string | undefined
  readonly match: ResolvedMatch | undefined
}

/** One way to fix it: why, and the route as the config would write it. */
export interface UnmatchedFix {
  readonly why: string
  readonly config: string
}

/** A string as a single-quoted JavaScript literal. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`
}

/** The route object, with `options` (already written) after its target. */
function routeConfig(route: FixRoute, options: readonly string[]): string {
  const target = `target: ${quoted(route.target ?? 'http://localhost:3000')}`
  return `{ ${quoted(route.prefix)}: { ${[target, ...options].join(', ')} } }`
}

/** The route's match rules with `change` over them, as the config writes them; none: `[]`. */
function matchConfig(
  match: ResolvedMatch | undefined,
  change: { ignoreQuery?: readonly string[]; subset?: true },
): string[] {
  const ignoreQuery = [...new Set([...(match?.ignoreQuery ?? []), ...(change.ignoreQuery ?? [])])]
  const rules: string[] = []
  if (ignoreQuery.length > 0) rules.push(`ignoreQuery: [${ignoreQuery.map(quoted).join(', ')}]`)
  if (match !== undefined && match.matchHeaders.length > 0)
    rules.push(`matchHeaders: [${match.matchHeaders.map(quoted).join(', ')}]`)
  if (change.subset === true || match?.body === 'subset') rules.push("body: 'subset'")
  return rules.length === 0 ? [] : [`match: { ${rules.join(', ')} }`]
}

/**
 * The fixes for a request that differs from the closest recording by `differences`: record it,
 * always; ignore the query keys, when only query keys differ and no `match` function decides;
 * `body: 'subset'`, when the request only adds body fields.
 *
 * @example
 * unmatchedFixes({ prefix: '/api', target: 'http://localhost:3000', match: undefined }, [
 *   { part: 'query', name: '_t', recorded: undefined, request: '1712' },
 * ])[1]?.config
 * // "{ '/api': { target: 'http://localhost:3000', replay: 'only', match: { ignoreQuery: ['_t'] } } }"
 */
export function unmatchedFixes(route: FixRoute, differences: readonly Difference[]): UnmatchedFix[] {
  // A `match` function cannot be written here: the snippet keeps rules only.
  const rules = route.match?.test === undefined ? route.match : undefined
  const fixes: UnmatchedFix[] = [
    {
      why: "Record it: with the target up, record: 'missing' in place of replay: 'only' answers what has a recording and forwards and records what has none; make the call once",
      config: routeConfig(route, ["record: 'missing'", ...matchConfig(rules, {})]),
    },
  ]
  if (differences.length === 0 || route.match?.test !== undefined) return fixes
  if (differences.every((difference) => difference.part === 'query')) {
    const names = differences.map((difference) => difference.name ?? '')
    const recorded = differences.some((difference) => difference.recorded !== undefined)
    fixes.push({
      why: `Or, if ${names.map((name) => `?${name}`).join(', ')} does not change the answer, leave it out of the match${recorded ? ' (then record again: the recordings that hold it keep it in their key)' : ''}`,
      config: routeConfig(route, ["replay: 'only'", ...matchConfig(rules, { ignoreQuery: names })]),
    })
  }
  const added = differences.every(
    (difference) =>
      difference.part === 'body' && difference.name !== undefined && difference.recorded === undefined,
  )
  if (added && route.match?.body !== 'subset') {
    fixes.push({
      why: 'Or, if the fields only this call has do not change the answer, match a recording whose fields it all has',
      config: routeConfig(route, ["replay: 'only'", ...matchConfig(rules, { subset: true })]),
    })
  }
  return fixes
}
