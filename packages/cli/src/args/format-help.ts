import type { CommandSpec } from './command-spec.js'
import { flagSynopsis } from './parse-flags.js'

/**
 * The `--help` text of a command: synopsis, arguments, flags with their defaults, notes and
 * examples, in the shape `git` and `vite` users know.
 *
 * @example
 * io.out(formatHelp(serveSpec))
 */
export function formatHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${spec.usage}`, '', spec.summary, '']
  if (spec.positionals !== undefined && spec.positionals.length > 0) {
    lines.push('Arguments:')
    for (const positional of spec.positionals)
      lines.push(`  ${positional.name.padEnd(26)} ${positional.description}`)
    lines.push('')
  }
  lines.push('Flags:')
  const rows = Object.entries(spec.flags).map(([name, flag]) => {
    const repeat = flag.multiple ? ' (repeatable)' : ''
    const fallback = flag.default === undefined ? '' : ` (default: ${flag.default})`
    return [flagSynopsis(name, flag), `${flag.description}${repeat}${fallback}`] as const
  })
  rows.push(['-h, --help', 'show this help'])
  const width = Math.max(26, ...rows.map(([left]) => left.length))
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)} ${right}`)
  for (const note of spec.notes ?? []) lines.push('', note)
  lines.push('', 'Examples:')
  for (const example of spec.examples) lines.push(`  ${example}`)
  return `${lines.join('\n')}\n`
}
