import { resolveControl } from '../stand-ins/control/options/resolve-control.js'
import { resolveMockBackendOptions } from '../stand-ins/mock-backend/options/resolve-echo-backend-options.js'
import { checkMatch } from '../stand-ins/recordings/options/resolve-match-options.js'
import { checkRecord, checkReplay } from '../stand-ins/recordings/options/resolve-recordings-options.js'
import { resolveMocks } from '../stand-ins/route-mocks/options/resolve-route-mocks.js'
import { CorsDevProxyError } from './errors.js'
import type { Bypass, TransformResponse } from './hook-options.js'
import { applyOptions, checkOptions } from './option-derivations.js'
import { ROUTE_DEFAULTS, type RouteOptionDefaults } from './option-lists.js'
import { quote, routeOption } from './option-path.js'
import { OPTION_TABLE } from './option-table.js'
import { resolveAgent } from './resolve-agent.js'
import { type ResolvedCorsOptions, resolveCorsOptions } from './resolve-cors-options.js'
import { mergeHooks, NO_HOOKS, type ResolvedHooks, resolveHooks, runConfigure } from './resolve-hooks.js'
import { resolvePathFilter } from './resolve-path-filter.js'
import { createPathRewriter, removesPrefixOnly } from './resolve-path-rewrite.js'
import { checkEjectPlugins, resolvePlugins } from './resolve-plugins.js'
import { requireRoutedTarget, resolveRouter } from './resolve-router.js'
import type { ResolvedJsonpOptions, ResolvedRoute } from './resolved-route.js'
import { exampleRoute, firstTarget, NO_TARGET, routeKind, routeObject } from './route-kind.js'
import { normalizePrefix } from './validate-prefix.js'
import { validateTarget } from './validate-target.js'
import {
  checkAuth,
  checkFollowRedirects,
  checkFunction,
  checkJsonp,
  checkLogSink,
  checkPathRewrite,
} from './validate-values.js'
import { writtenRoute } from './written-route.js'

/**
 * The shared options (the second argument), resolved: what a route inherits when it does not
 * set a value itself. Starts from the option table's defaults; a simple option only a route
 * takes keeps its default here.
 */
export interface RouteDefaults extends RouteOptionDefaults {
  readonly cors: ResolvedCorsOptions | undefined
  readonly jsonp: ResolvedJsonpOptions | undefined
  /** The shared `on` hooks, run before each forwarding route's own. */
  readonly hooks: ResolvedHooks
}

/** The shared defaults when the second argument sets nothing. */
export const NO_SHARED_OPTIONS: RouteDefaults = Object.freeze({
  ...applyOptions<RouteOptionDefaults>(OPTION_TABLE, {}, {}, ['route', 'both']),
  cors: undefined,
  jsonp: undefined,
  hooks: NO_HOOKS,
})

/** The options only a forwarding route takes, each with a valid value for the example fix. */
const FORWARD_ONLY: ReadonlyArray<readonly [name: string, example: string]> = [
  ['on', "{ proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') }"],
  ['configure', "(proxy) => proxy.on('error', (err) => console.error(err))"],
  ['router', "{ '/v2': 'http://localhost:3002' }"],
  ['transformResponse', '(body) => body'],
  ['plugins', "[(proxyServer) => proxyServer.on('error', (err) => console.error(err))]"],
  ['logger', 'console'],
  ['record', 'true'],
  ['replay', "'fallback'"],
  ['match', "{ ignoreQuery: ['_t'] }"],
  ['mocks', "{ 'GET /users/:id': { status: 200, json: { id: 1 } } }"],
  ['openapi', "'./openapi.yaml'"],
]

/**
 * Validates one route (key and value as the user wrote them) and resolves it, once, into a
 * frozen `ResolvedRoute`: prefix normalized, target parsed, shared defaults applied (route
 * values win; `headers` merge per name), `rewritePath` built, and its `cors`, `mock` and
 * `jsonp` resolved too, so nothing is left to check when the server starts. Throws
 * `CorsDevProxyError` with the option's path (`routes['/api'].cors.origin`) and an example fix.
 * Advice that is not an error goes to `warn`. Never mutates `config`. `order` is the route's
 * place among the keys as written.
 *
 * @example
 * resolveRoute('/api/', 'http://localhost:3000').prefix // '/api'
 */
export function resolveRoute(
  key: string,
  config: unknown,
  defaults: RouteDefaults = NO_SHARED_OPTIONS,
  warn: (message: string) => void = () => undefined,
  order = 0,
): ResolvedRoute {
  const prefix = normalizePrefix(key, exampleRoute(config))
  const at = (name: string): string => routeOption(key, name)
  const options = routeObject(key, config, prefix)
  const { mocked, routedOnly } = routeKind(options, key, prefix, at)
  const route: RouteInProgress = { key, config, options, prefix, at, defaults, warn, routedOnly }
  const common = commonParts(route, order)
  // Options a mock route does not use are still checked, so a typo never passes silently.
  const checked = checkedForwardValues(options, at)
  if (mocked) return resolveMockRoute(route, common, checked.ws as boolean | undefined)
  return resolveForwardRoute(route, common, checked)
}

/** One route under resolution: what the user wrote, where its options are named, and the shared defaults. */
interface RouteInProgress {
  readonly key: string
  /** The route's value as written (a target string or a route object), which `configure` receives. */
  readonly config: unknown
  /** The route as an object (a target string becomes `{ target }`). */
  readonly options: Record<string, unknown>
  readonly prefix: string
  /** The option's path for error messages: `routes['/api'].cors`. */
  readonly at: (name: string) => string
  readonly defaults: RouteDefaults
  readonly warn: (message: string) => void
  /** A router or a Vite `bypass` stands in for the target. */
  readonly routedOnly: boolean
}

/** What a mock route and a forwarding route both have: prefix, path rewriting and filter, bypass, CORS, JSONP, switches. */
function commonParts(route: RouteInProgress, order: number) {
  const { options, prefix, at, defaults, warn } = route
  const cors =
    options.cors === undefined
      ? defaults.cors
      : resolveCorsOptions(options.cors, { option: at('cors'), warn })
  const jsonp = checkJsonp(options.jsonp, at('jsonp'))
  const written = checkPathRewrite(options.pathRewrite, at('pathRewrite'))
  // `{ '^/api': '' }` on '/api' is the default written out: resolved as the default, so redirects can be undone.
  const pathRewrite = removesPrefixOnly(prefix, written) ? undefined : written
  // As the user wrote it, before an adapter filled in its tool's defaults (see written-route.ts).
  const source = Object.freeze({ ...writtenRoute(options) })
  const rewritePath = createPathRewriter({ prefix, pathRewrite, option: at('pathRewrite'), source })
  return {
    prefix,
    order,
    rewritePath,
    pathRewrite,
    pathFilter: resolvePathFilter(options.pathFilter, at('pathFilter')),
    bypass: checkFunction<Bypass>(
      options.bypass,
      at('bypass'),
      "{ bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) }",
    ),
    source,
    cors,
    jsonp: jsonp === undefined ? defaults.jsonp : jsonp || undefined,
    control: resolveControl(options, at),
  }
}

/** The parts of a route both kinds resolve alike. */
type CommonParts = ReturnType<typeof commonParts>

/**
 * The simple options (the option table's entries with a validator), checked on every route
 * in the table's order, so the first mistake is the one reported.
 */
function checkedForwardValues(options: Record<string, unknown>, at: (name: string) => string) {
  return checkOptions(OPTION_TABLE, options, 'route', at)
}

/** The simple options as checked, absent where the route leaves one to its default. */
type CheckedForwardValues = Readonly<Record<string, unknown>>

/** A mock route: refused if it sets what only a forwarding route can do, then its mock backend resolved. */
function resolveMockRoute(
  route: RouteInProgress,
  common: CommonParts,
  ws: boolean | undefined,
): ResolvedRoute {
  const { options, prefix, at } = route
  // What only a forwarding route can do: a mock answers itself, with nothing upstream.
  for (const [name, example] of FORWARD_ONLY) {
    if (options[name] !== undefined) {
      throw new CorsDevProxyError(
        'CONFLICTING_OPTIONS',
        at(name),
        'has no effect on a mock route, which answers itself: give the route a target instead of `mock`, or remove it',
        `{ ${quote(prefix)}: { target: 'http://localhost:3000', ${name}: ${example} } }`,
      )
    }
  }
  return Object.freeze({
    kind: 'mock',
    ...common,
    ws: ws ?? ROUTE_DEFAULTS.ws,
    mock: resolveMockBackendOptions(options.mock, at('mock')),
  })
}

/** A forwarding route: its target, router, agent and hooks resolved, and the shared defaults applied where it is silent. */
function resolveForwardRoute(
  route: RouteInProgress,
  common: CommonParts,
  checked: CheckedForwardValues,
): ResolvedRoute {
  const { options, at, defaults, routedOnly } = route
  const { source } = common
  // With `targets`, the first is the route's target until an override or the inspector picks another.
  const target = routedOnly
    ? NO_TARGET
    : (firstTarget(common.control) ?? validateTarget(options.target, at('target')))
  const router = resolveRouter(options.router, at('router'), source)
  const requestLogger = checkLogSink(options.logger, at('logger'))
  const agent = resolveAgent(options.agent, at('agent'))
  // Each simple option: the route's value, else the shared one, else the table's default.
  const simple = applyOptions<RouteOptionDefaults>(OPTION_TABLE, checked, defaults, ['route', 'both'])
  checkEjectPlugins(options.ejectPlugins, at('ejectPlugins'), route.warn)
  return Object.freeze({
    kind: 'forward',
    ...common,
    target: target.url,
    websocketTarget: target.websocket,
    hasTarget: !routedOnly,
    socketPath: target.socketPath,
    authorization: checkAuth(options.auth, at('auth')),
    followRedirects: checkFollowRedirects(options.followRedirects, at('followRedirects')),
    agent,
    ...simple,
    // A ws:/wss: target asks for WebSocket forwarding unless `ws: false` says otherwise.
    ws: (checked.ws as boolean | undefined) ?? (target.websocket || ROUTE_DEFAULTS.ws),
    // An https.Agent with `rejectUnauthorized: false` accepts a self-signed target, as `secure: false` does.
    secure: agent?.tls.rejectUnauthorized === false ? false : simple.secure,
    hooks: mergeHooks(
      defaults.hooks,
      resolveHooks(options.on, at('on')),
      runConfigure(options.configure, route.config, at('configure')),
      resolvePlugins(options.plugins, source, at('plugins')),
    ),
    requestLogger: requestLogger === undefined ? undefined : { sink: requestLogger, option: at('logger') },
    router: routedOnly ? requireRoutedTarget(router, at('target')) : router,
    transformResponse: checkFunction<TransformResponse>(
      options.transformResponse,
      at('transformResponse'),
      "{ transformResponse: (body) => body.toString().replaceAll('http://localhost:3000', '') }",
    ),
    record: checkRecord(options.record, options.replay, at('record')),
    replay: checkReplay(options.replay, at('replay')),
    match: checkMatch(options.match, at('match')),
    mocks: resolveMocks(options.mocks, at('mocks')),
  })
}
