import { CorsDevProxyError } from './errors.js'
import type { ConfigurableProxy, ProxyHookName, ProxyHooks } from './hook-options.js'
import { HOOK_NAMES } from './nested-option-names.js'
import { describeType, isPlainObject } from './option-path.js'
import { assertKnownKeys } from './unknown-options.js'

/** One hook and where it was configured, for the message when it throws. */
export interface HookEntry<F> {
  /** The option it came from, e.g. `routes['/api'].on.proxyReq`. */
  readonly name: string
  readonly fn: F
}

/** A route's hooks, per event, in the order they run. */
export type ResolvedHooks = {
  readonly [E in ProxyHookName]: readonly HookEntry<NonNullable<ProxyHooks[E]>>[]
}

/** No hooks at all: the forwarder then does no hook work per request. */
export const NO_HOOKS: ResolvedHooks = Object.freeze({
  proxyReq: Object.freeze([]),
  proxyRes: Object.freeze([]),
  error: Object.freeze([]),
  proxyReqWs: Object.freeze([]),
})

const HOOK_EXAMPLE = "{ on: { proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') } }"

function isHookName(name: string): name is ProxyHookName {
  return HOOK_NAMES.includes(name)
}

/**
 * Validates `on` (http-proxy-middleware's hooks) once: an object of `proxyReq`, `proxyRes`,
 * `error`, `proxyReqWs` functions. Throws `CorsDevProxyError` naming `option` otherwise.
 *
 * @example
 * resolveHooks({ proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') }, "routes['/api'].on")
 */
export function resolveHooks(on: unknown, option: string): ResolvedHooks {
  if (on === undefined) return NO_HOOKS
  if (!isPlainObject(on)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an object of hooks (proxyReq, proxyRes, error, proxyReqWs), got ${describeType(on)}`,
      HOOK_EXAMPLE,
    )
  }
  assertKnownKeys(on, HOOK_NAMES, 'hooks', (key) => `${option}.${key}`)
  const hooks: Record<ProxyHookName, HookEntry<never>[]> = {
    proxyReq: [],
    proxyRes: [],
    error: [],
    proxyReqWs: [],
  }
  for (const [name, fn] of Object.entries(on)) {
    if (fn === undefined) continue
    if (typeof fn !== 'function' || !isHookName(name)) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        `${option}.${name}`,
        `must be a function, got ${describeType(fn)}`,
        HOOK_EXAMPLE,
      )
    }
    hooks[name].push({ name: `${option}.${name}`, fn: fn as never })
  }
  return freezeHooks(hooks)
}

function freezeHooks(hooks: Record<ProxyHookName, HookEntry<never>[]>): ResolvedHooks {
  return Object.freeze({
    proxyReq: Object.freeze(hooks.proxyReq),
    proxyRes: Object.freeze(hooks.proxyRes),
    error: Object.freeze(hooks.error),
    proxyReqWs: Object.freeze(hooks.proxyReqWs),
  })
}

/**
 * Calls Vite's `configure(proxy, options)` once, at construction, with a proxy whose `on`,
 * `once` and `off` collect the hooks it registers (the events of `on`), and returns them. An
 * event cors-dev-proxy does not emit, or a `configure` that throws, fails here with the option
 * named, rather than at the first request.
 *
 * @example
 * runConfigure((proxy) => proxy.on('proxyReq', (proxyReq) => proxyReq.setHeader('x-id', '1')), route, "routes['/api'].configure")
 */
export function runConfigure(
  configure: unknown,
  options: unknown,
  option: string,
  /** A valid value for `option` in the example fixes: a `configure` fragment by default, a plugin for `plugins[i]`. */
  fixed: (fn: string) => string = (fn) => `{ configure: ${fn} }`,
): ResolvedHooks {
  if (configure === undefined) return NO_HOOKS
  if (typeof configure !== 'function') {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be a function (proxy, options) => void, got ${describeType(configure)}`,
      fixed("(proxy) => proxy.on('proxyReq', (proxyReq) => proxyReq.setHeader('x-token', 'dev'))"),
    )
  }
  const hooks: Record<ProxyHookName, HookEntry<never>[]> = {
    proxyReq: [],
    proxyRes: [],
    error: [],
    proxyReqWs: [],
  }
  const check = (event: unknown, listener: unknown): ProxyHookName => {
    if (typeof event !== 'string' || !isHookName(event)) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        option,
        `registers proxy.on(${JSON.stringify(event)}), not an event cors-dev-proxy emits (${HOOK_NAMES.join(', ')})`,
        fixed("(proxy) => proxy.on('error', (err) => console.error(err))"),
      )
    }
    if (typeof listener !== 'function') {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        option,
        `registers proxy.on('${event}') with ${describeType(listener)}, which is not a function`,
        fixed("(proxy) => proxy.on('error', (err) => console.error(err))"),
      )
    }
    return event
  }
  const proxy: ConfigurableProxy = {
    on(event: unknown, listener: unknown) {
      hooks[check(event, listener)].push({ name: `${option} → proxy.on('${event}')`, fn: listener as never })
      return proxy
    },
    once(event: unknown, listener: unknown) {
      const name = check(event, listener)
      let done = false
      const fn = (...args: unknown[]) => {
        if (done) return undefined
        done = true
        return (listener as (...args: unknown[]) => unknown)(...args)
      }
      hooks[name].push({ name: `${option} → proxy.once('${name}')`, fn: fn as never })
      return proxy
    },
    off(event: unknown, listener: unknown) {
      const list = hooks[check(event, listener)]
      const index = list.findIndex((entry) => entry.fn === listener)
      if (index !== -1) list.splice(index, 1)
      return proxy
    },
  } as ConfigurableProxy
  try {
    ;(configure as (proxy: ConfigurableProxy, options: unknown) => void)(proxy, options)
  } catch (error) {
    if (error instanceof CorsDevProxyError) throw error
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `threw while configuring the route (${error instanceof Error ? error.message : String(error)})`,
      fixed("(proxy) => proxy.on('error', (err) => console.error(err))"),
    )
  }
  return freezeHooks(hooks)
}

/** The hooks of several sources, in order: the shared options', the route's `on`, its `configure`. */
export function mergeHooks(...sources: readonly ResolvedHooks[]): ResolvedHooks {
  const used = sources.filter((hooks) => hooks !== NO_HOOKS)
  if (used.length === 0) return NO_HOOKS
  if (used.length === 1) return used[0] as ResolvedHooks
  const merged: Record<ProxyHookName, HookEntry<never>[]> = {
    proxyReq: [],
    proxyRes: [],
    error: [],
    proxyReqWs: [],
  }
  for (const hooks of used)
    for (const name of HOOK_NAMES as ProxyHookName[])
      merged[name].push(...(hooks[name] as HookEntry<never>[]))
  return freezeHooks(merged)
}
