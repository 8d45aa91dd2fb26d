/*
 * args/: the command line. A command's flags are declared once (command-spec.ts), read by the
 * parser here (on `node:util`'s `parseArgs`, with did-you-mean for an unknown flag), typed by
 * the value readers (flag-values.ts, config-flags.ts) and shown by `--help` (format-help.ts).
 * A mistake is a `UsageError` (usage-error.ts) with a line that works, never a stack trace.
 */
import { parseArgs } from 'node:util'
import type { CommandSpec, FlagSpec } from './command-spec.js'
import { closestName } from './did-you-mean.js'
import { UsageError } from './usage-error.js'

/** The flags of one command line, read through typed accessors. */
export interface ParsedFlags {
  /** The positional arguments, in order. */
  readonly positionals: readonly string[]
  /** Whether `--help` (or `-h`) was given. */
  readonly help: boolean
  /** The value of a single-valued string flag (the last one given wins), or `undefined`. */
  string(name: string): string | undefined
  /** Every value of a repeatable string flag, in order. */
  strings(name: string): readonly string[]
  /** Whether a boolean flag was given. */
  boolean(name: string): boolean
  /** Whether a flag was given at all. */
  has(name: string): boolean
}

/** How a flag is written: `--port PORT`, `--https`. */
export function flagSynopsis(name: string, flag: FlagSpec): string {
  return flag.type === 'string' ? `--${name} ${flag.value ?? 'VALUE'}` : `--${name}`
}

function exampleOf(spec: CommandSpec, flag: FlagSpec | undefined): string {
  if (flag?.example !== undefined) return `cors-dev-proxy ${spec.name} ${flag.example}`
  return spec.examples[0] ?? `cors-dev-proxy ${spec.name} --help`
}

/** More positionals than the command takes: the first extra one named, and whether it meant a flag. */
function refuseExtraPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const allowed = spec.positionals?.length ?? 0
  if (positionals.length <= allowed) return
  const extra = positionals[allowed] as string
  const looksLikeFlag = extra.startsWith('-')
  throw new UsageError(
    allowed === 0
      ? `\`${spec.name}\` takes no argument, got "${extra}"${looksLikeFlag ? '' : ' (flags start with --)'}`
      : `too many arguments for \`${spec.name}\`: "${extra}"`,
    spec.examples[0],
  )
}

/**
 * Reads a command's arguments with `node:util`'s `parseArgs` in its lenient mode, then checks
 * them against the spec so each mistake can be explained: an unknown flag gets the closest known
 * one ("did you mean --port?") and a correct example, a flag that takes a value gets one (a value
 * starting with `-` must be written `--flag=-value`, so a forgotten value does not swallow the
 * next flag), a boolean flag takes none, and extra positionals are refused. Throws
 * {@link UsageError}.
 *
 * @example
 * const flags = parseFlags(serveSpec, ['--port', '0', '--route', '/api=http://127.0.0.1:3000'])
 * flags.string('port') // '0'
 */
export function parseFlags(spec: CommandSpec, argv: readonly string[]): ParsedFlags {
  const known: Record<string, FlagSpec> = {
    ...spec.flags,
    help: { type: 'boolean', description: 'show this help' },
  }
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      Object.entries(known).map(([name, flag]) => [
        name,
        { type: flag.type, multiple: true, ...(name === 'help' ? { short: 'h' } : {}) },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const values = new Map<string, Array<string | boolean>>()
  const positionals: string[] = []
  const names = Object.keys(known)
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value)
      continue
    }
    if (token.kind !== 'option') continue
    const flag = known[token.name]
    if (flag === undefined) {
      const guess = closestName(token.name.replace(/^no-/, ''), names)
      const hint = guess === undefined ? '' : `: did you mean --${guess}?`
      throw new UsageError(
        `unknown flag ${token.rawName} for \`${spec.name}\`${hint}`,
        guess === undefined ? spec.examples[0] : exampleOf(spec, known[guess]),
      )
    }
    if (flag.type === 'boolean') {
      if (token.inlineValue) {
        throw new UsageError(
          `${token.rawName} takes no value (got ${token.rawName}=${token.value ?? ''}): write ${token.rawName} alone`,
          exampleOf(spec, flag),
        )
      }
      values.set(token.name, [true])
      continue
    }
    const value = token.value
    if (value === undefined || (!token.inlineValue && value.startsWith('-') && value !== '-')) {
      throw new UsageError(
        `${token.rawName} needs a value: ${flagSynopsis(token.name, flag)}` +
          (value === undefined ? '' : ` (a value that starts with "-" is written ${token.rawName}=${value})`),
        exampleOf(spec, flag),
      )
    }
    const list = flag.multiple ? (values.get(token.name) ?? []) : []
    list.push(value)
    values.set(token.name, list)
  }
  const help = values.has('help')
  // `--help` wins: whatever else is on the line, the help is what was asked for.
  if (!help) refuseExtraPositionals(spec, positionals)
  return {
    positionals,
    help,
    string: (name) => {
      const list = values.get(name)
      const last = list?.[list.length - 1]
      return typeof last === 'string' ? last : undefined
    },
    strings: (name) => (values.get(name) ?? []).filter((value): value is string => typeof value === 'string'),
    boolean: (name) => values.get(name)?.[0] === true,
    has: (name) => values.has(name),
  }
}

/**
 * A bad value: names the flag and what it needs, with a correct example.
 *
 * @example
 * throw invalidFlagValue(spec, 'port', 'http', 'an integer from 0 to 65535')
 */
export function invalidFlagValue(
  spec: CommandSpec,
  name: string,
  value: string,
  expected: string,
): UsageError {
  return new UsageError(
    `--${name} must be ${expected}, got ${JSON.stringify(value)}`,
    exampleOf(spec, spec.flags[name]),
  )
}
