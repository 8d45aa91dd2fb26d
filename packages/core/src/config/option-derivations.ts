/*
 * What is read from an option table: each function takes the table, so a test can derive
 * everything from a table with one more entry (test/docs/option-table.test.ts) and the
 * module-level lists (option-lists.ts) are these functions applied to `OPTION_TABLE`.
 */
import type { OptionEntry, OptionTableLevel } from './option-entry.js'
import type { TopLevelVocabulary } from './unknown-options.js'

/** The two places a configuration writes options: a route object, or the shared options. */
export type WrittenAt = 'route' | 'global'

/** Whether an entry is written at `at`: a `both` entry is written at either. */
function writtenAt(entry: OptionEntry, at: WrittenAt): boolean {
  return entry.level === at || entry.level === 'both'
}

/**
 * The names a route object (`route`) or the shared options (`global`) accept, in the table's
 * order; the shared list names the route defaults first. These are the unknown-key check's
 * known names and its did-you-mean vocabulary.
 *
 * @example
 * optionNames(OPTION_TABLE, 'route').slice(0, 2) // ['target', 'changeOrigin']
 */
export function optionNames(table: readonly OptionEntry[], at: WrittenAt): readonly string[] {
  const levels: readonly OptionTableLevel[] = at === 'route' ? ['route', 'both'] : ['both', 'global']
  const entries = at === 'route' ? table.filter((entry) => writtenAt(entry, at)) : byLevel(table, levels)
  return Object.freeze(entries.map((entry) => entry.name))
}

/**
 * The entries of the given levels, level by level, each in the table's order: the shared
 * options' list (and the Options page's section) shows the route defaults apart from the rest.
 *
 * @example
 * byLevel(OPTION_TABLE, ['global']).map((entry) => entry.name) // ['log', 'logger', ...]
 */
export function byLevel(table: readonly OptionEntry[], levels: readonly OptionTableLevel[]): OptionEntry[] {
  return levels.flatMap((level) => table.filter((entry) => entry.level === level))
}

/**
 * The names only a route takes: a shared key with one of them is told to move to a route.
 *
 * @example
 * routeOnlyNames(OPTION_TABLE).includes('target') // true
 */
export function routeOnlyNames(table: readonly OptionEntry[]): readonly string[] {
  const shared = new Set(optionNames(table, 'global'))
  return Object.freeze(table.filter((e) => e.level === 'route' && !shared.has(e.name)).map((e) => e.name))
}

/**
 * The defaults of the simple options written at `at`, by name (`undefined` values included:
 * `timeout` has no deadline by default).
 *
 * @example
 * optionDefaults(OPTION_TABLE, 'global').log // 'info'
 */
export function optionDefaults<T extends object = Readonly<Record<string, unknown>>>(
  table: readonly OptionEntry[],
  at: WrittenAt,
): T {
  const simple = table.filter(
    (entry) => writtenAt(entry, at) && entry.check !== undefined && 'default' in entry,
  )
  // The table is data: the caller names the type its names and values have (option-lists.ts).
  return Object.freeze(Object.fromEntries(simple.map((entry) => [entry.name, entry.default]))) as T
}

/**
 * What the unknown-key check needs of the table at `at`: the accepted names (its did-you-mean
 * vocabulary), a valid example value per name for its fixes, and, for the shared options, the
 * names that belong on a route.
 *
 * @example
 * optionVocabulary(OPTION_TABLE, 'route').fixValues.timeout // '30000'
 */
export function optionVocabulary(
  table: readonly OptionEntry[],
  at: WrittenAt,
): TopLevelVocabulary & { readonly names: readonly string[] } {
  // Every name's, at either level: the advice for a route's key in the shared options shows it on a route.
  const fixValues = Object.fromEntries(table.toReversed().map((e) => [e.name, e.fixValue ?? 'true']))
  return Object.freeze({
    names: optionNames(table, at),
    fixValues: Object.freeze(fixValues),
    routeOnly: at === 'global' ? routeOnlyNames(table) : Object.freeze([]),
  })
}

/**
 * Runs the validator of every simple option written at `at` once, on the values of `object`, in
 * the table's order (so the first mistake is the one reported): name → checked value, absent
 * where `object` leaves the option out. A `both` option is checked by the same validator in
 * the shared options and on a route.
 *
 * @example
 * checkOptions(OPTION_TABLE, { xfwd: false }, 'route', (name) => `routes['/api'].${name}`).xfwd // false
 */
export function checkOptions(
  table: readonly OptionEntry[],
  object: Readonly<Record<string, unknown>>,
  at: WrittenAt,
  path: (name: string) => string,
): Readonly<Record<string, unknown>> {
  const checked: Record<string, unknown> = {}
  for (const entry of table) {
    if (entry.check === undefined || !writtenAt(entry, at)) continue
    const value = entry.check(object[entry.name], path(entry.name))
    if (value !== undefined) checked[entry.name] = value
  }
  return checked
}

/**
 * The values of the simple options of the given levels, from what was checked there and what is
 * inherited (the table's defaults, or for a route, the shared options resolved): the value
 * written wins, except for an option that combines both (`headers` merge per name).
 *
 * @example
 * applyOptions(OPTION_TABLE, { xfwd: false }, {}, ['route', 'both']).xfwd // false
 */
export function applyOptions<T extends object = Readonly<Record<string, unknown>>>(
  table: readonly OptionEntry[],
  checked: Readonly<Record<string, unknown>>,
  inherited: object,
  levels: readonly OptionTableLevel[],
): T {
  const values: Record<string, unknown> = {}
  for (const entry of table) {
    if (entry.check === undefined || !levels.includes(entry.level)) continue
    const own = checked[entry.name]
    const base = entry.name in inherited ? (inherited as Record<string, unknown>)[entry.name] : entry.default
    values[entry.name] =
      entry.combine === undefined
        ? (own ?? base)
        : (entry.combine as (a: unknown, b: unknown) => unknown)(base, own)
  }
  return values as T
}
