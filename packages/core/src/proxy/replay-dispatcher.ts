import { Agent, type Dispatcher } from 'undici'
import type { CorsDevProxyConfig } from '../config/define-config.js'
import { splitConfig } from '../config/define-config.js'
import type { CorsDevProxyOptions, RouteOptions, Routes } from '../config/options.js'
import { dispatchAnswer, requestOf } from '../fetch/dispatch-answer.js'
import { prefixMatches } from '../pipeline/match-route.js'
import { createFetchHandler, type FetchHandler } from './create-fetch-handler.js'

/*
 * `replayDispatcher`, `@cors-dev-proxy/core/replay-dispatcher`: code under test that calls
 * `fetch` (Node's, or undici's) gets a route's recordings and mocks with no backend, no proxy
 * server and no MSW. An undici dispatcher (for `setGlobalDispatcher`, or a `fetch`'s own
 * `dispatcher`) takes the requests to the route's target origin, and to the origins given, and
 * answers them with the core's own engine: an in-process `createFetchHandler` whose route has
 * `replay: 'only'`, so the matching, the session's order and state, the mocks and the 404 that
 * names what differs are the proxy's. Other requests go on to a plain `Agent`.
 */

/** What `replayDispatcher` serves. */
export interface ReplayDispatcherOptions {
  /** The config as `cors-dev-proxy.config.*` holds it (`{ routes, recordings, ... }`), or the routes alone. */
  readonly config: CorsDevProxyConfig | Routes
  /** The route whose recordings and mocks answer (`'/api'`); a key of the config's routes. */
  readonly route: string
  /**
   * Origins whose requests are answered besides the route's target's (`'http://localhost:5173'`,
   * the dev server the code would call). A request's path is matched as the proxy sees it, under the prefix.
   */
  readonly origins?: readonly string[]
  /** Options over the config's (`log` is `'silent'` unless given). */
  readonly options?: CorsDevProxyOptions
}

/** An undici dispatcher that answers from the recordings; `close()` also closes the engine. */
export type ReplayDispatcher = Dispatcher

function routeOf(routes: Routes, prefix: string): RouteOptions {
  const route = routes[prefix]
  if (route === undefined) {
    const known = Object.keys(routes).join(', ') || 'none'
    throw new TypeError(
      `replayDispatcher: the config has no route '${prefix}' (its routes: ${known}); pass route: '${Object.keys(routes)[0] ?? '/api'}'`,
    )
  }
  return typeof route === 'string' ? { target: route } : (route as RouteOptions)
}

function originOf(value: string | URL): string {
  return new URL(String(value)).origin
}

/**
 * A dispatcher that answers `route`'s requests from its recordings and mocks as the proxy's
 * `replay: 'only'` does; pass it to undici's `setGlobalDispatcher` (Node's `fetch` uses it too).
 *
 * @example
 * import { setGlobalDispatcher } from 'undici'
 * import config from '../cors-dev-proxy.config'
 * setGlobalDispatcher(replayDispatcher({ config, route: '/api', origins: ['http://localhost:5173'] }))
 */
export function replayDispatcher(given: ReplayDispatcherOptions): ReplayDispatcher {
  const [routes, fileOptions] = splitConfig<CorsDevProxyOptions>(given.config)
  const prefix = given.route
  const route = { ...routeOf(routes, prefix), replay: 'only', record: false } as RouteOptions
  const handler: FetchHandler = createFetchHandler(
    { [prefix]: route },
    { log: 'silent', ...fileOptions, ...given.options },
  )
  const forwarded = handler.routes.find((one) => one.prefix === prefix)
  const origins = new Set((given.origins ?? []).map(originOf))
  if (forwarded?.kind === 'forward' && forwarded.hasTarget) origins.add(forwarded.target.origin)
  const agent = new Agent()
  const composed = agent.compose((dispatch) => (opts, answer) => {
    const path = opts.path.split('?')[0] ?? opts.path
    if (opts.origin === undefined || !origins.has(originOf(opts.origin)) || !prefixMatches(prefix, path)) {
      return dispatch(opts, answer)
    }
    void requestOf(opts)
      .then((request) => handler(request))
      .then(
        (response) => dispatchAnswer(answer, response ?? notAnswered(prefix)),
        (error: unknown) => dispatchAnswer(answer, error instanceof Error ? error : new Error(String(error))),
      )
    return true
  })
  // The engine closes with the dispatcher; the composed one is a view of `agent`, which is left as it is.
  const closing = async (end: () => Promise<void>, callback?: unknown) => {
    await handler.close()
    await end()
    if (typeof callback === 'function') (callback as (error: null) => void)(null)
  }
  return new Proxy(composed, {
    get(target, key, receiver) {
      if (key === 'close') return (callback?: unknown) => closing(() => agent.close(), callback)
      if (key === 'destroy') return (callback?: unknown) => closing(() => agent.destroy(), callback)
      return Reflect.get(target, key, receiver) as unknown
    },
  })
}

function notAnswered(prefix: string): Response {
  return new Response(`cors-dev-proxy: route '${prefix}' did not take this request\n`, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  })
}
