import type { ResolvedRoute } from './resolved-route.js'

/**
 * Where an option is written: on a route (`RouteOptions`), in the shared options only
 * (`CorsDevProxyOptions`), or `both`: a shared value is every route's default and a route's own
 * value wins over it.
 */
export type OptionTableLevel = 'route' | 'global' | 'both'

/**
 * One option, declared once: the option table (option-table.ts) holds one of these per name and
 * level, and the option lists, the defaults, the did-you-mean vocabulary, the simple options'
 * resolution, the routes line and the Options page are all read from it.
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
  /** The option's note on the routes line when a route differs from the default, else `undefined`. */
  readonly startup?: (route: ResolvedRoute) => string | undefined
}
