import { resolveRecordingsOptions } from '../stand-ins/recordings/options/resolve-recordings-options.js'
import { type CorsDevProxyConfig, splitConfig } from './define-config.js'
import { CorsDevProxyError } from './errors.js'
import { applyOptions, checkOptions } from './option-derivations.js'
import { GLOBAL_OPTION_NAMES, GLOBAL_VOCABULARY, type RouteOptionDefaults } from './option-lists.js'
import { describeType, globalOption, isPlainObject, quote, routeOption } from './option-path.js'
import { OPTION_TABLE } from './option-table.js'
import type { CorsDevProxyOptions, LogLevel, LogSink, Routes } from './options.js'
import { resolveCorsOptions } from './resolve-cors-options.js'
import { resolveHooks } from './resolve-hooks.js'
import { resolveInspectorOptions } from './resolve-inspector-options.js'
import { type RouteDefaults, resolveRoute } from './resolve-route.js'
import type { ResolvedCorsDevProxyOptions, ResolvedRoute } from './resolved-route.js'
import { assertKnownKeys } from './unknown-options.js'
import { checkJsonp } from './validate-values.js'

const ROUTES_EXAMPLE = "{ '/api': 'http://localhost:3000' }"

/** The simple options only the second argument takes, resolved. */
interface GlobalValues {
  readonly log: LogLevel
  readonly logger: LogSink | undefined
  readonly subscribeUpgrade: boolean
  readonly overlay: boolean
}

/**
 * Resolves the shared options (the second argument): the simple ones, each checked once by its
 * entry's validator (the same a route's value goes through), split into what only the second
 * argument takes and the defaults every route inherits, with the rich ones resolved beside.
 */
function resolveShared(
  options: Record<string, unknown>,
  warn: (message: string) => void,
): { globals: GlobalValues; defaults: RouteDefaults } {
  const checked = checkOptions(OPTION_TABLE, options, 'global', globalOption)
  const cors = resolveCorsOptions(options.cors, { option: globalOption('cors'), warn })
  const jsonp = checkJsonp(options.jsonp, globalOption('jsonp'))
  const defaults: RouteDefaults = Object.freeze({
    ...applyOptions<RouteOptionDefaults>(OPTION_TABLE, checked, {}, ['route', 'both']),
    cors,
    jsonp: jsonp || undefined,
    hooks: resolveHooks(options.on, globalOption('on')),
  })
  return { globals: applyOptions<GlobalValues>(OPTION_TABLE, checked, {}, ['global']), defaults }
}

/**
 * Validates the whole configuration once, at construction, and resolves it: every route with
 * its defaults filled in (shared options are defaults that route values override; `headers`
 * merge per name, the route winning), sorted longest prefix first so the first match is the
 * longest whatever the key order. Everything returned is frozen; the caller's objects are
 * never mutated.
 *
 * Throws `CorsDevProxyError` for any mistake, with the option's path and an example fix:
 * INVALID_ROUTES (not an object, empty), INVALID_PREFIX (including two keys that are the same
 * prefix after normalization, such as `/api` and `/api/`), INVALID_TARGET, UNSUPPORTED_SCHEME,
 * UNKNOWN_OPTION (with "did you mean"), INVALID_OPTION, CONFLICTING_OPTIONS, INVALID_CORS. Nested
 * options (`cors`, `mock`, `jsonp`, cookie rewrites, headers) are resolved here too, so a
 * configuration that resolves cannot fail later when a server starts. Advice that is not an
 * error is returned in `warnings`, for the proxy to log.
 *
 * The configuration may also come as one object, `{ routes, ...options }` (see `defineConfig`).
 *
 * @example
 * const { routes, log } = resolveOptions({ '/api': 'http://localhost:3000', '/api/auth': { target: 'http://localhost:4000' } })
 * routes.map((route) => route.prefix) // ['/api/auth', '/api']
 */
export function resolveOptions(
  routesOrConfig: Routes | CorsDevProxyConfig,
  sharedOptions?: CorsDevProxyOptions,
): ResolvedCorsDevProxyOptions {
  const [routes, options] = splitConfig(routesOrConfig, sharedOptions)
  if (!isPlainObject(routes)) {
    throw new CorsDevProxyError(
      'INVALID_ROUTES',
      'routes',
      `(the first argument) must be an object of path prefix → target, got ${describeType(routes)}`,
      ROUTES_EXAMPLE,
    )
  }
  const keys = Object.keys(routes)
  if (keys.length === 0) {
    throw new CorsDevProxyError(
      'INVALID_ROUTES',
      'routes',
      '(the first argument) has no route',
      ROUTES_EXAMPLE,
    )
  }
  if (options !== undefined && !isPlainObject(options)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      'options',
      `(the second argument) must be an object, got ${describeType(options)}`,
      "{ log: 'debug' }",
    )
  }
  const shared: Record<string, unknown> = options ?? {}
  assertKnownKeys(shared, GLOBAL_OPTION_NAMES, 'global', globalOption, GLOBAL_VOCABULARY)
  const warnings: string[] = []
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message)
  }
  const { globals, defaults } = resolveShared(shared, warn)
  const inspector = resolveInspectorOptions(shared.inspector, globalOption('inspector'))
  const recordings = resolveRecordingsOptions(shared.recordings, globalOption('recordings'))

  const byPrefix = new Map<string, string>()
  const resolved: ResolvedRoute[] = []
  for (const [order, key] of keys.entries()) {
    const route = resolveRoute(key, routes[key], defaults, warn, order)
    const previous = byPrefix.get(route.prefix)
    if (previous !== undefined) {
      throw new CorsDevProxyError(
        'INVALID_PREFIX',
        routeOption(key),
        `is the same prefix as ${routeOption(previous)} (a trailing '/' makes no difference): keep one`,
        `{ ${quote(route.prefix)}: 'http://localhost:3000' }`,
      )
    }
    byPrefix.set(route.prefix, key)
    resolved.push(route)
  }
  // Longest first; equal lengths cannot both match one path, the name order only makes it stable.
  resolved.sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1))
  return Object.freeze({
    routes: Object.freeze(resolved),
    log: globals.log,
    logger: globals.logger,
    subscribeUpgrade: globals.subscribeUpgrade,
    overlay: globals.overlay,
    inspector,
    recordings,
    warnings: Object.freeze(warnings),
  })
}
