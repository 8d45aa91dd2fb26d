/*
 * The option table: one entry per option a configuration accepts at the top level (a route's
 * keys and the shared options'), with its level, validator or resolver, default, doc text,
 * examples and routes-line note (see `OptionEntry`). Everything that lists options is derived
 * from it (option-derivations.ts, option-lists.ts): the known names per level and the
 * did-you-mean vocabulary (unknown-options.ts), the per-route advice for a shared key, the
 * defaults, the simple options' resolution, run once per place an option is written
 * (resolve-options.ts, resolve-route.ts), the routes line (log/describe-routes.ts) and the
 * Options page (docs/.vitepress/option-reference). Adding a route option is its entry here plus
 * the step that uses it.
 *
 * The TypeScript types come from the entries too. A simple option (a validator and a default)
 * is built by `option<Written>()` in a part keyed by name (option-table-request.ts,
 * -answer.ts, -global.ts), which types it: `RouteOptions`, `CorsDevProxyOptions` and
 * `ResolvedSimpleOptions` map over those parts (`SimpleOptionParts`, options.ts), and the JSDoc of
 * the entry's property is what an editor shows on hover. The parts that are lists
 * (option-table-hooks.ts, the stand-ins' tables) hold rich options only (`RichOptionEntry`: the compiler
 * refuses a validator there). A rich option (`cors`, `mock`, `jsonp`, `inspector`, `recordings`
 * objects, functions) keeps its hand-written field in `RouteOptions` and its own resolver, named
 * in its entry's `resolvedBy`.
 *
 * A stand-in for the backend owns its options: their entries, types and resolvers live in
 * `stand-ins/<name>/options/` (the control's faults and targets, the recordings, the route mocks,
 * the mock backend), a part of the configuration layer that imports only `http/` and this folder,
 * so that this table and resolve-route.ts can read them (test/architecture/layers.test.ts). The
 * contract's `openapi` lives the same way in `contract/options/`.
 *
 * The order is the Options page's and the routes line's: a route's options first, in the
 * order `RouteOptions` declares them, then those only the shared options take.
 */

import { CONTRACT_OPTIONS } from '../contract/options/openapi-option-table.js'
import { CONTROL_OPTIONS } from '../stand-ins/control/options/control-option-table.js'
import { RECORDING_ROUTE_OPTIONS } from '../stand-ins/recordings/options/recordings-option-table.js'
import { ROUTE_MOCKS_OPTIONS } from '../stand-ins/route-mocks/options/route-mocks-option-table.js'
import type { OptionEntry } from './option-entry.js'
import { ANSWER_OPTIONS } from './option-table-answer.js'
import { GLOBAL_ONLY_OPTIONS } from './option-table-global.js'
import { HOOK_OPTIONS } from './option-table-hooks.js'
import { REQUEST_OPTIONS } from './option-table-request.js'

/**
 * Every top-level option, once per level it is written at (`logger` twice: a route's request
 * logger and the shared log sink are two options).
 *
 * @example
 * OPTION_TABLE.find((entry) => entry.name === 'xfwd')?.level // 'both'
 */
export const OPTION_TABLE: readonly OptionEntry[] = Object.freeze([
  ...Object.values(REQUEST_OPTIONS),
  ...Object.values(ANSWER_OPTIONS),
  ...HOOK_OPTIONS,
  ...CONTROL_OPTIONS,
  ...RECORDING_ROUTE_OPTIONS,
  ...ROUTE_MOCKS_OPTIONS,
  ...Object.values(CONTRACT_OPTIONS),
  ...Object.values(GLOBAL_ONLY_OPTIONS),
])
