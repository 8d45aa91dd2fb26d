import { describe, expect, expectTypeOf, it } from 'vitest'
import { renderOptionsPage } from '../../docs/.vitepress/option-reference/render-options.ts'
import {
  applyOptions,
  checkOptions,
  optionDefaults,
  optionNames,
  optionVocabulary,
} from '../../packages/core/src/config/option-derivations.ts'
import {
  type OptionEntry,
  option,
  type ResolvedOptions,
  type WrittenOptions,
} from '../../packages/core/src/config/option-entry.ts'
import {
  GLOBAL_DEFAULTS,
  GLOBAL_OPTION_NAMES,
  ROUTE_DEFAULTS,
  ROUTE_OPTION_NAMES,
} from '../../packages/core/src/config/option-lists.ts'
import { globalOption } from '../../packages/core/src/config/option-path.ts'
import { OPTION_TABLE } from '../../packages/core/src/config/option-table.ts'
import type {
  CookieRewrite,
  CorsDevProxyOptions,
  LogLevel,
  RouteOptions,
  SimpleOptionParts,
} from '../../packages/core/src/config/options.ts'
import { resolveRoute } from '../../packages/core/src/config/resolve-route.ts'
import type { ResolvedSimpleOptions } from '../../packages/core/src/config/resolved-route.ts'
import { assertKnownKeys } from '../../packages/core/src/config/unknown-options.ts'
import { checkWholeNumber } from '../../packages/core/src/config/validate-values.ts'
import type { HeaderEntry } from '../../packages/core/src/http/header-list.ts'
import { describeRoutes } from '../../packages/core/src/log/describe-routes.ts'
import { expectConfigError } from '../support/config-error.js'

// Every list of options is derived from the option table: adding an entry adds the option to
// each. The fake option goes into a copy of the table passed to the derivations (the module's
// table is never touched), so a derivation that kept its own list would not find it.

/** A shared option (a default every route may override), as a contributor would add one. */
const SLOW_START = option<number>({
  name: 'slowStart',
  level: 'both',
  doc: ['Milliseconds to wait before forwarding the first request of a route (a test-only option).'],
  defaultText: '0',
  example: '250',
  fixValue: '250',
  check: (value, option) => checkWholeNumber(value, option, 0, 60_000, '{ slowStart: 250 }'),
  default: 0,
  startup: () => 'slowStart',
})

const TABLE: readonly OptionEntry[] = [...OPTION_TABLE, SLOW_START]
const routePath = (name: string) => `routes['/api'].${name}`

describe('an option added to the option table', () => {
  it('is in the option lists of both levels', () => {
    expect(optionNames(TABLE, 'route')).toContain('slowStart')
    expect(optionNames(TABLE, 'global')).toContain('slowStart')
    expect(ROUTE_OPTION_NAMES).not.toContain('slowStart')
  })

  it('has its default at both levels', () => {
    expect(optionDefaults(TABLE, 'route').slowStart).toBe(0)
    expect(optionDefaults(TABLE, 'global').slowStart).toBe(0)
  })

  it('is suggested for a misspelling, with its example value in the fix', () => {
    for (const at of ['route', 'global'] as const) {
      const vocabulary = optionVocabulary(TABLE, at)
      const path = at === 'route' ? routePath : globalOption
      expectConfigError(() => assertKnownKeys({ slowStrat: 100 }, vocabulary.names, at, path, vocabulary), {
        code: 'UNKNOWN_OPTION',
        option: path('slowStrat'),
        contains: ['did you mean `slowStart`?', 'Fix it like this: { slowStart: 250 }'],
      })
    }
  })

  it('is validated by its one validator wherever it is written, a route value winning', () => {
    expectConfigError(() => checkOptions(TABLE, { slowStart: -1 }, 'global', globalOption), {
      code: 'INVALID_OPTION',
      option: 'options.slowStart',
    })
    expectConfigError(() => checkOptions(TABLE, { slowStart: 'soon' }, 'route', routePath), {
      code: 'INVALID_OPTION',
      option: "routes['/api'].slowStart",
    })
    const shared = applyOptions(TABLE, checkOptions(TABLE, { slowStart: 100 }, 'global', globalOption), {}, [
      'both',
    ])
    const own = checkOptions(TABLE, { slowStart: 5 }, 'route', routePath)
    expect(applyOptions(TABLE, own, shared, ['route', 'both']).slowStart).toBe(5)
    expect(applyOptions(TABLE, {}, shared, ['route', 'both']).slowStart).toBe(100)
    expect(applyOptions(TABLE, {}, {}, ['route', 'both']).slowStart).toBe(0)
  })

  it('is on the Options page, as a route option and as a shared one', () => {
    const page = renderOptionsPage(TABLE)
    expect(page).toContain('| [`slowStart`](#slowstart) |')
    expect(page).toContain('### `slowStart` {#slowstart}')
    expect(page).toContain('### `slowStart` {#shared-slowstart}')
    expect(page).toContain(SLOW_START.doc[0])
    expect(page).toContain("'/api': { target: 'http://localhost:3000', slowStart: 250 },")
    expect(renderOptionsPage()).not.toContain('slowStart')
  })

  it('says its note on the routes line', () => {
    const route = resolveRoute('/api', 'http://localhost:3000')
    expect(describeRoutes([route], TABLE)).toBe('routes: /api → http://localhost:3000 (slowStart)')
    expect(describeRoutes([route])).toBe('routes: /api → http://localhost:3000')
  })
})

// The types are derived from the table's parts the same way (`SimpleOptionParts`, options.ts):
// the entry's written type reaches the options a user writes, and its resolved type the resolved
// route. `pnpm typecheck` checks these (expectTypeOf does nothing when the test runs).
describe("an option's types", () => {
  /** The option table's typed parts with the fake option in one more part, as `RouteOptions` reads them. */
  type PartsWithSlowStart = SimpleOptionParts & { readonly slowStart: typeof SLOW_START }

  it('are those its entry is built with, on a route, in the shared options and resolved', () => {
    expectTypeOf<WrittenOptions<PartsWithSlowStart, 'route' | 'both'>['slowStart']>().toEqualTypeOf<
      number | undefined
    >()
    expectTypeOf<WrittenOptions<PartsWithSlowStart, 'global' | 'both'>['slowStart']>().toEqualTypeOf<
      number | undefined
    >()
    expectTypeOf<ResolvedOptions<PartsWithSlowStart, 'route' | 'both'>['slowStart']>().toEqualTypeOf<number>()
    expectTypeOf<WrittenOptions<SimpleOptionParts, 'route' | 'both'>>().not.toHaveProperty('slowStart')
    expect(SLOW_START.level).toBe('both')
  })

  it('reach RouteOptions, CorsDevProxyOptions and the resolved route from the real entries', () => {
    expectTypeOf<RouteOptions['xfwd']>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<RouteOptions['headers']>().toEqualTypeOf<Record<string, string> | undefined>()
    expectTypeOf<RouteOptions['cookieDomainRewrite']>().toEqualTypeOf<CookieRewrite | undefined>()
    expectTypeOf<RouteOptions>().not.toHaveProperty('log')
    expectTypeOf<CorsDevProxyOptions['timeout']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<CorsDevProxyOptions['log']>().toEqualTypeOf<LogLevel | undefined>()
    expectTypeOf<CorsDevProxyOptions>().not.toHaveProperty('http2')
    expectTypeOf<ResolvedSimpleOptions['headers']>().toEqualTypeOf<readonly HeaderEntry[]>()
    expectTypeOf<ResolvedSimpleOptions['timeout']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<ResolvedSimpleOptions>().not.toHaveProperty('ws')
    expect(ROUTE_OPTION_NAMES).toContain('xfwd')
  })
})

describe('the contract’s openapi, an entry of contract/options/', () => {
  it('is a route option with its did-you-mean fix, on the Options page with its object form', () => {
    expect(ROUTE_OPTION_NAMES).toContain('openapi')
    expect(GLOBAL_OPTION_NAMES).not.toContain('openapi')
    expect(ROUTE_DEFAULTS).toHaveProperty('openapi', undefined)
    expect(optionVocabulary(OPTION_TABLE, 'route').fixValues.openapi).toBe("'./openapi.yaml'")
    const page = renderOptionsPage()
    expect(page).toContain('| [`openapi`](#openapi) | `string \\| URL \\| OpenApiOptions` |')
    expect(page).toContain('## `openapi` options')
    expect(page).toContain("openapi: { document: './openapi.yaml', enforce: 'request' },")
  })
})

describe('the module-level lists', () => {
  it('are the option table’s derivations', () => {
    expect(ROUTE_OPTION_NAMES).toEqual(optionNames(OPTION_TABLE, 'route'))
    expect(GLOBAL_OPTION_NAMES).toEqual(optionNames(OPTION_TABLE, 'global'))
    expect(ROUTE_DEFAULTS).toEqual(optionDefaults(OPTION_TABLE, 'route'))
    expect(GLOBAL_DEFAULTS).toEqual(optionDefaults(OPTION_TABLE, 'global'))
  })

  it('name each option once per level', () => {
    for (const at of ['route', 'global'] as const) {
      const names = optionNames(OPTION_TABLE, at)
      expect(new Set(names).size).toBe(names.length)
    }
  })
})
