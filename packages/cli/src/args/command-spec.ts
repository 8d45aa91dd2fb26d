/** One flag of a command, as `--help` shows it and the parser reads it. */
export interface FlagSpec {
  /** A `string` flag takes a value (`--port 8080` or `--port=8080`); a `boolean` flag takes none. */
  readonly type: 'string' | 'boolean'
  /**
   * The flag may be given several times; its values are collected in order.
   * @default false
   */
  readonly multiple?: boolean
  /** Placeholder of the value in `--help`, e.g. `PORT`. */
  readonly value?: string
  /** One line for `--help`. */
  readonly description: string
  /** The default, as `--help` shows it. */
  readonly default?: string
  /** A correct use of the flag, shown under a mistake, e.g. `--port 8080`. */
  readonly example?: string
}

/** A positional argument of a command. */
export interface PositionalSpec {
  readonly name: string
  readonly description: string
}

/** Everything the parser and `--help` need to know about a command. */
export interface CommandSpec {
  /** The command's name, e.g. `serve`. */
  readonly name: string
  /** One line for the command list. */
  readonly summary: string
  /** The synopsis, e.g. `cors-dev-proxy check <url> --origin ORIGIN [flags]`. */
  readonly usage: string
  /**
   * The positional arguments, in order; more are refused.
   * @default none
   */
  readonly positionals?: readonly PositionalSpec[]
  /** The flags by long name (without `--`); `--help` is added to every command. */
  readonly flags: Readonly<Record<string, FlagSpec>>
  /** Command lines that work, for `--help` and under mistakes. */
  readonly examples: readonly string[]
  /** Paragraphs printed after the flags. */
  readonly notes?: readonly string[]
}
