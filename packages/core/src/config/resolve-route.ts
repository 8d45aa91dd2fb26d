import type { HeaderEntry } from '../http/header-list.js'
import type { CorsOptions } from './cors-options.js'
import { CorsDevProxyError } from './errors.js'
import type { MockBackendOptions } from './mock-options.js'
import { describeType, isPlainObject, quote, renderValue, routeOption } from './option-path.js'
import { createPathRewriter } from './path-rewrite.js'
import type { ResolvedRoute } from './resolved-route.js'
import { assertKnownKeys, ROUTE_OPTION_NAMES } from './unknown-options.js'
import { checkHeaders, mergeHeaders } from './validate-headers.js'
import { normalizePrefix } from './validate-prefix.js'
import { validateTarget } from './validate-target.js'
import {
  checkBoolean,
  checkCookieRewrite,
  checkJsonp,
  checkPathRewrite,
  checkSwitchObject,
  checkTimeout,
} from './validate-values.js'

/** The shared options, resolved: what a route inherits when it does not set a value itself. */
export interface RouteDefaults {
  readonly changeOrigin: boolean
  readonly xfwd: boolean
  readonly secure: boolean
  readonly timeout: number
  readonly headers: readonly HeaderEntry[]
  readonly cors: CorsOptions | undefined
  readonly jsonp: { readonly param: string } | undefined
}

/** Defaults of the shared options, as documented on `RouteOptions`. */
export const ROUTE_DEFAULTS: RouteDefaults = Object.freeze({
  changeOrigin: true,
  xfwd: true,
  secure: true,
  timeout: 30_000,
  headers: Object.freeze([]),
  cors: undefined,
  jsonp: undefined,
})

/** Renders a route's target for the example fix of a prefix error. */
function exampleTarget(config: unknown): string {
  if (typeof config === 'string') return renderValue(config)
  if (isPlainObject(config) && typeof config.target === 'string') return renderValue(config.target)
  return "'http://localhost:3000'"
}

/**
 * Validates one route (key and value as the user wrote them) and resolves it, once, into a
 * frozen `ResolvedRoute`: prefix normalized, target parsed, shared defaults applied (route
 * values win; `headers` merge per name), `rewritePath` built. Throws `CorsDevProxyError` with
 * the option's path (`routes['/api'].target`) and an example fix. Never mutates `config`.
 *
 * @example
 * resolveRoute('/api/', 'http://localhost:3000', ROUTE_DEFAULTS).prefix // '/api'
 */
export function resolveRoute(
  key: string,
  config: unknown,
  defaults: RouteDefaults = ROUTE_DEFAULTS,
): ResolvedRoute {
  const prefix = normalizePrefix(key, exampleTarget(config))
  const at = (name: string): string => routeOption(key, name)
  if (typeof config !== 'string' && !isPlainObject(config)) {
    const fix = typeof config === 'number' ? `'http://localhost:${config}'` : "'http://localhost:3000'"
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      routeOption(key),
      `must be a target URL string or a route object, got ${describeType(config)}`,
      `{ ${quote(prefix)}: ${fix} }`,
    )
  }
  const options: Record<string, unknown> = typeof config === 'string' ? { target: config } : config
  assertKnownKeys(options, ROUTE_OPTION_NAMES, 'route', at)

  const mock = checkSwitchObject<MockBackendOptions>(options.mock, at('mock'), '{ mock: true }') || undefined
  if (mock && options.target !== undefined) {
    throw new CorsDevProxyError(
      'CONFLICTING_OPTIONS',
      routeOption(key),
      'sets both `target` and `mock`: a route either forwards to a target or answers from the mock backend',
      `{ ${quote(prefix)}: { mock: true } } or { ${quote(prefix)}: { target: 'http://localhost:3000' } }`,
    )
  }
  if (!mock && options.target === undefined) {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      at('target'),
      'is missing: a route needs a target (or `mock: true` to answer from the mock backend)',
      `{ ${quote(prefix)}: { target: 'http://localhost:3000' } }`,
    )
  }
  const target = mock ? undefined : validateTarget(options.target, at('target'))

  const cors = checkSwitchObject<CorsOptions>(options.cors, at('cors'), '{ cors: { credentials: true } }')
  const jsonp = checkJsonp(options.jsonp, at('jsonp'))
  const pathRewrite = checkPathRewrite(options.pathRewrite, at('pathRewrite'))
  const route: ResolvedRoute = {
    prefix,
    target: target?.url,
    changeOrigin:
      checkBoolean(options.changeOrigin, at('changeOrigin'), 'changeOrigin') ?? defaults.changeOrigin,
    xfwd: checkBoolean(options.xfwd, at('xfwd'), 'xfwd') ?? defaults.xfwd,
    // A ws:/wss: target asks for WebSocket forwarding unless `ws: false` says otherwise.
    ws: checkBoolean(options.ws, at('ws'), 'ws') ?? target?.websocket ?? false,
    secure: checkBoolean(options.secure, at('secure'), 'secure') ?? defaults.secure,
    timeout: checkTimeout(options.timeout, at('timeout')) ?? defaults.timeout,
    headers: mergeHeaders(defaults.headers, checkHeaders(options.headers, at('headers'))),
    rewritePath: createPathRewriter({
      prefix,
      pathRewrite,
      option: at('pathRewrite'),
    }),
    cookieDomainRewrite:
      checkCookieRewrite(options.cookieDomainRewrite, at('cookieDomainRewrite'), 'domain') ?? '',
    cookiePathRewrite:
      checkCookieRewrite(options.cookiePathRewrite, at('cookiePathRewrite'), 'path') ?? false,
    cors: cors === undefined ? defaults.cors : cors || undefined,
    mock,
    jsonp: jsonp === undefined ? defaults.jsonp : jsonp || undefined,
  }
  return Object.freeze(route)
}
