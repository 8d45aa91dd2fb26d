import type { ResolvedRouteParts } from './resolved-route-parts.js'

/**
 * Where an option is written: on a route (`RouteOptions`), in the shared options only
 * (`CorsDevProxyOptions`), or `both`: a shared value is every route's default and a route's own
 * value wins over it.
 */
export type OptionTableLevel = 'route' | 'global' | 'both'

/**
 * One option, declared once: the option table (option-table.ts) holds one of these per name and
 * level, and the option lists, the defaults, the did-you-mean vocabulary, the simple options'
 * resolution, the routes line and the Options page are all read from it. A simple option's
 * entry is built by `option<Written>()`, which also gives the TypeScript types their field.
 *
 * @example
 * const entry: OptionEntry = {
 *   name: 'http2',
 *   level: 'route',
 *   doc: ['Speak HTTP/2 to the target.'],
 *   defaultText: 'false',
 *   example: 'true',
 *   check: (value, option) => checkBoolean(value, option, 'http2'),
 *   default: false,
 * }
 */
export interface OptionEntry {
  /** The key as written in a configuration. */
  readonly name: string
  readonly level: OptionTableLevel
  /** What the option does, in markdown, one line per source line (the Options page joins them). */
  readonly doc: readonly string[]
  /** The default as the Options page shows it (`'info'`, `undefined (no deadline)`). */
  readonly defaultText: string
  /** A value as a user writes it (a TypeScript expression): the Options page's sample. */
  readonly example: string
  /**
   * A valid value for the fix of a mistyped or misplaced key (`true` when absent, which
   * `test/config/fix-examples.test.ts` checks is valid for every option without one).
   */
  readonly fixValue?: string
  /**
   * The validator of a simple option: the value as written and its path (`routes['/api'].xfwd`)
   * → the checked value, or `undefined` when not set; throws `CorsDevProxyError`. Run once per
   * place the option is written, whatever the level.
   */
  readonly check?: (value: unknown, option: string) => unknown
  /** The value when nothing sets it (only for an option with `check`; may be `undefined`). */
  readonly default?: unknown
  /** How a route's own value joins the shared one (`headers` merge per name); by default the route's wins. */
  readonly combine?: (inherited: never, own: never) => unknown
  /** For an option whose resolution is rich: the file (and function) that resolves it. */
  readonly resolvedBy?: string
  /**
   * The option's note on the routes line when a route differs from the default, else
   * `undefined`. It gets the route and, for a simple option, its value on the route (typed by
   * `option()`; `never` here so that every entry's note fits, as `combine`'s arguments).
   */
  readonly startup?: (route: ResolvedRouteParts, value: never) => string | undefined
}

/**
 * A simple option's entry (one with a validator), typed: `Written` is what a user writes,
 * `Resolved` what the validator returns and the resolved route holds, `Level` where it is
 * written. `RouteOptions`, `CorsDevProxyOptions` and `ResolvedSimpleOptions` take their simple
 * options' fields from these types (`WrittenOptions`, `ResolvedOptions`), so a new simple option
 * needs no hand-written field. Built by `option()`.
 */
export interface SimpleOptionEntry<Written, Resolved, Level extends OptionTableLevel = OptionTableLevel>
  extends OptionEntry {
  readonly level: Level
  readonly check: (value: unknown, option: string) => Resolved | undefined
  readonly default?: Resolved
  /** The routes-line note, given the option's value on the route (`undefined` where the route has none: a mock route has only `ws`). */
  readonly startup?: (route: ResolvedRouteParts, value: Resolved | undefined) => string | undefined
  /**
   * Never set: carries the two types to `WrittenOptions` and `ResolvedOptions` (in an object, so
   * that a resolved type holding `undefined`, as `timeout`'s, keeps it).
   */
  readonly types?: { readonly written: Written; readonly resolved: Resolved }
}

/** What `option()` is given: the entry without its type carrier. */
type SimpleOptionFields<Written, Resolved, Level extends OptionTableLevel> = Omit<
  SimpleOptionEntry<Written, Resolved, Level>,
  'types'
>

/**
 * A simple option's entry, typed: `option<boolean>({ ... })` is written and resolved as a
 * boolean; `option<number, number | undefined>({ ... })` is written as a number and resolved to
 * a number or `undefined`. The entry's `level` picks the overload, so the type knows it too
 * (a call that names its type arguments leaves none to infer, so one signature could not).
 *
 * @example
 * const http2 = option<boolean>({
 *   name: 'http2',
 *   level: 'route',
 *   doc: ['Speak HTTP/2 to the target.'],
 *   defaultText: 'false',
 *   example: 'true',
 *   check: (value, option) => checkBoolean(value, option, 'http2'),
 *   default: false,
 * })
 */
export function option<Written, Resolved = Written>(
  entry: SimpleOptionFields<Written, Resolved, 'route'>,
): SimpleOptionEntry<Written, Resolved, 'route'>
export function option<Written, Resolved = Written>(
  entry: SimpleOptionFields<Written, Resolved, 'both'>,
): SimpleOptionEntry<Written, Resolved, 'both'>
export function option<Written, Resolved = Written>(
  entry: SimpleOptionFields<Written, Resolved, 'global'>,
): SimpleOptionEntry<Written, Resolved, 'global'>
export function option(entry: OptionEntry): OptionEntry {
  return entry
}

/**
 * An option whose resolution is rich (its own resolver, named in `resolvedBy`): no validator,
 * default or combination here, which the compiler holds to, so a simple option cannot sit in a
 * part of the table the types do not read. Its TypeScript type is a field of `RouteOptions`
 * (or `CorsDevProxyOptions`), written by hand with its nested interface.
 */
export interface RichOptionEntry extends OptionEntry {
  readonly check?: never
  readonly default?: never
  readonly combine?: never
}

/**
 * A rich option's entry in a part of the table keyed by name (the parts that hold simple options).
 *
 * @example
 * const cors = richOption({ name: 'cors', level: 'both', doc: ['...'], defaultText: 'false', example: 'true', resolvedBy: 'resolve-cors-options.ts' })
 */
export function richOption(entry: RichOptionEntry): RichOptionEntry {
  return entry
}

/**
 * The names of a part of the table (an object keyed by name) whose entries are simple options
 * written at `Levels`. Matched on the two fields that tell (not on the whole entry: a note's
 * value parameter would not match `unknown`).
 */
type SimpleNames<Part, Levels extends OptionTableLevel> = {
  [Name in keyof Part]: Part[Name] extends {
    readonly level: Levels
    readonly check: (value: unknown, option: string) => unknown
  }
    ? Name
    : never
}[keyof Part]

/**
 * The fields a user writes for a part of the option table's simple options written at
 * `Levels`: `{ xfwd?: boolean, ... }`. A mapped type over the part's own properties (through
 * `Pick`), so an editor's hover on `RouteOptions['xfwd']` shows the JSDoc of the entry's property.
 */
export type WrittenOptions<Part, Levels extends OptionTableLevel> = {
  [Name in keyof Pick<Part, SimpleNames<Part, Levels>>]?: Part[Name] extends {
    readonly types?: { readonly written: infer Written }
  }
    ? Written
    : never
}

/** The resolved values of a part of the option table's simple options written at `Levels`: `{ readonly xfwd: boolean, ... }`. */
export type ResolvedOptions<Part, Levels extends OptionTableLevel> = {
  readonly [Name in keyof Pick<Part, SimpleNames<Part, Levels>>]: Part[Name] extends {
    readonly types?: { readonly resolved: infer Resolved }
  }
    ? Resolved
    : never
}
