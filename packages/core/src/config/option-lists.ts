/*
 * The option table's derivations for the configuration code: the known names per level, the
 * route-only names, and the defaults. Computed once, when the module loads, from `OPTION_TABLE`.
 */
import { optionDefaults, optionVocabulary } from './option-derivations.js'
import { OPTION_TABLE } from './option-table.js'
import type { LogLevel } from './option-value-types.js'
import type { ResolvedSimpleOptions } from './resolved-route.js'

/** What the unknown-key check knows of a route's keys: `RouteOptions`'s names, their fix values. */
export const ROUTE_VOCABULARY = optionVocabulary(OPTION_TABLE, 'route')

/** What the unknown-key check knows of the shared options' keys, and which keys go on a route. */
export const GLOBAL_VOCABULARY = optionVocabulary(OPTION_TABLE, 'global')

/** Keys a route object accepts: `RouteOptions`'s (test/docs/options-page.test.ts holds the two together). */
export const ROUTE_OPTION_NAMES: readonly string[] = ROUTE_VOCABULARY.names

/** Keys the shared options (second argument) accept: `CorsDevProxyOptions`'s. */
export const GLOBAL_OPTION_NAMES: readonly string[] = GLOBAL_VOCABULARY.names

/** The defaults of a route's simple options, as the table gives them (typed for the code that reads one). */
export interface RouteOptionDefaults extends ResolvedSimpleOptions {
  readonly ws: boolean
}

/** Defaults of a route's simple options (`RouteOptions`), which the shared options may replace. */
export const ROUTE_DEFAULTS = optionDefaults<RouteOptionDefaults>(OPTION_TABLE, 'route')

/** Defaults of the simple options only the second argument takes. */
export const GLOBAL_DEFAULTS = optionDefaults<{
  readonly log: LogLevel
  readonly subscribeUpgrade: boolean
  readonly overlay: boolean
}>(OPTION_TABLE, 'global')
