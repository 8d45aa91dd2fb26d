import { byLevel } from '../../../packages/core/src/config/option-derivations.ts'
import type { OptionEntry as TableEntry } from '../../../packages/core/src/config/option-entry.ts'
import { OPTION_TABLE } from '../../../packages/core/src/config/option-table.ts'
import { extractOptions, type OptionEntry } from './extract-options.ts'
import type { OptionSection } from './option-sections.ts'

/** A table entry as the page shows it, its type (and a function's arguments) read from the interface. */
function fromTable(entry: TableEntry, typed: OptionEntry | undefined, routeDefault: boolean): OptionEntry {
  return {
    name: entry.name,
    type: typed?.type ?? 'unknown',
    description: entry.doc.join('\n'),
    defaultValue: entry.defaultText,
    example: entry.example,
    routeDefault,
    signature: typed?.signature,
  }
}

/**
 * The options a section of the page lists: for the route and shared sections, the core's option
 * table's entries of that level (the shared section lists its own options, then the route
 * defaults); for a nested section, its interface's members with their JSDoc. `table` is the
 * option table; a test passes one with an extra entry.
 *
 * @example
 * sectionEntries(OPTION_SECTIONS[0]).map((entry) => entry.name) // ['target', 'changeOrigin', ...]
 */
export function sectionEntries(
  section: OptionSection,
  table: readonly TableEntry[] = OPTION_TABLE,
): OptionEntry[] {
  const declared = extractOptions(section)
  if (section.table === undefined) return declared
  const typed = new Map(declared.map((entry) => [entry.name, entry]))
  const entries =
    section.table === 'route'
      ? table.filter((entry) => entry.level !== 'global')
      : byLevel(table, ['global', 'both'])
  return entries.map((entry) =>
    fromTable(entry, typed.get(entry.name), section.table === 'global' && entry.level === 'both'),
  )
}
