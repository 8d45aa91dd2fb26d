/*
 * The first steps of a route's resolution (resolve-route.ts): the route as an object with only
 * known keys, whether it forwards or answers from the echo mock backend, and where it forwards
 * when its target is not written as `target`.
 */

import { checkTargetsAlone, type ResolvedControl } from '../stand-ins/control/options/resolve-control.js'
import { CorsDevProxyError } from './errors.js'
import { ROUTE_OPTION_NAMES, ROUTE_VOCABULARY } from './option-lists.js'
import { describeType, isPlainObject, quote, routeOption } from './option-path.js'
import { assertKnownKeys } from './unknown-options.js'
import { type ValidatedTarget, validateTarget } from './validate-target.js'

/**
 * Renders a route for the example fix of a prefix error: the user's own target when it is
 * valid (the example must work as it is), `{ mock: true }` for a mock route, else a placeholder.
 */
export function exampleRoute(config: unknown): string {
  if (isPlainObject(config) && config.mock !== undefined && config.mock !== false) return '{ mock: true }'
  const target = isPlainObject(config) ? config.target : config
  try {
    validateTarget(target, 'target')
    return quote((target as string).trim())
  } catch {
    return "'http://localhost:3000'"
  }
}

/** The route as an object: a target string becomes `{ target }`; anything else but an object is refused. */
export function routeObject(key: string, config: unknown, prefix: string): Record<string, unknown> {
  if (typeof config !== 'string' && !isPlainObject(config)) {
    // A port number is read as the user meaning that port on localhost.
    const port = Number.isInteger(config) && (config as number) > 0 && (config as number) < 65_536
    const fix = port ? `'http://localhost:${config}'` : "'http://localhost:3000'"
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      routeOption(key),
      `must be a target URL string or a route object, got ${describeType(config)}`,
      `{ ${quote(prefix)}: ${fix} }`,
    )
  }
  const options: Record<string, unknown> = typeof config === 'string' ? { target: config } : config
  assertKnownKeys(options, ROUTE_OPTION_NAMES, 'route', (name) => routeOption(key, name), ROUTE_VOCABULARY)
  return options
}

/** Whether the route is a mock or forwards (to its target, or where a router sends it); a route with neither is refused. */
export function routeKind(
  options: Record<string, unknown>,
  key: string,
  prefix: string,
  at: (name: string) => string,
): { mocked: boolean; routedOnly: boolean } {
  checkTargetsAlone(options, prefix, routeOption(key))
  const mocked = options.mock !== undefined && options.mock !== false
  if (mocked && options.target !== undefined) {
    throw new CorsDevProxyError(
      'CONFLICTING_OPTIONS',
      routeOption(key),
      'sets both `target` and `mock`: a route either forwards to a target or answers from the mock backend',
      `{ ${quote(prefix)}: { mock: true } } or { ${quote(prefix)}: { target: 'http://localhost:3000' } }`,
    )
  }
  // A router or a Vite `bypass` may stand in for the target (http-proxy-middleware and Vite accept both).
  const routedOnly =
    !mocked && options.target === undefined && (options.router !== undefined || options.bypass !== undefined)
  if (!mocked && options.target === undefined && options.targets === undefined && !routedOnly) {
    throw new CorsDevProxyError(
      'INVALID_TARGET',
      at('target'),
      'is missing: a route needs a target (or a `router` that picks one, or `mock: true` to answer from the mock backend)',
      `{ ${quote(prefix)}: { target: 'http://localhost:3000' } }`,
    )
  }
  return { mocked, routedOnly }
}

/**
 * The target of a route without one (only a `router` or a Vite `bypass`): never connected to,
 * since its router answers 502 when it finds none (`requireRoutedTarget`); `.invalid` is the
 * name reserved to fail (RFC 6761 section 6.4).
 */
export const NO_TARGET: ValidatedTarget = Object.freeze({
  url: new URL('http://no-target.invalid/'),
  websocket: false,
})

/** The first of the route's `targets`, as `validateTarget` gives a target; `undefined` without `targets`. */
export function firstTarget(control: ResolvedControl | undefined): ValidatedTarget | undefined {
  const [first] = control?.targets ?? []
  return first === undefined
    ? undefined
    : { url: first.url, socketPath: first.socketPath, websocket: first.websocket }
}
