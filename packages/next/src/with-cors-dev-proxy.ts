import {
  type CorsDevProxyConfig,
  CorsDevProxyError,
  type CorsDevProxyOptions,
  type Routes,
  SERVER_URL_VARIABLE,
} from '@cors-dev-proxy/core'
import { type ResolvedRoute, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { runsUnderNextServer } from './next-server-marker.js'
import { refuseProxyTsOptions } from './proxy-ts-refusals.js'

/** The part of Next's config this package reads and writes; the rest passes through as it is. */
export interface NextConfigLike {
  serverExternalPackages?: string[] | undefined
  [key: string]: unknown
}

/** A `next.config` export: the object, or Next's function of the phase. */
export type NextConfigInput<C extends NextConfigLike = NextConfigLike> =
  | C
  | ((phase: string, context: { defaultConfig: NextConfigLike }) => C | Promise<C>)

/** Next's phase while `next dev` (or a custom server with `dev: true`) runs. */
export const PHASE_DEVELOPMENT_SERVER = 'phase-development-server'

/**
 * Packages Next must load from node_modules rather than bundle into server code: `serverFetch`
 * reads `CORS_DEV_PROXY_URL` at call time, and the engine holds sockets and pools, which a
 * bundled copy per route would duplicate.
 */
const EXTERNAL_PACKAGES = ['@cors-dev-proxy/core', '@cors-dev-proxy/next']

/** Runs a check, with frames that would point into Next's config loader removed from its error. */
function checked<T>(check: () => T): T {
  try {
    return check()
  } catch (error) {
    // The message names the option and shows the fix; the stack would be ours and Next's loader.
    if (error instanceof CorsDevProxyError) error.stack = `${error.name}: ${error.message}`
    throw error
  }
}

/**
 * Where `serverFetch` sends relative URLs under `next dev`: Next sets `PORT` in its server
 * process before it loads the config. A custom server publishes its own URL once it listens
 * (`createNextServer`), which wins.
 */
function publishNextDevUrl(): void {
  const port = process.env.PORT
  if (process.env[SERVER_URL_VARIABLE] || port === undefined || !/^\d+$/.test(port)) return
  const scheme = process.env.__NEXT_EXPERIMENTAL_HTTPS === '1' ? 'https' : 'http'
  process.env[SERVER_URL_VARIABLE] = `${scheme}://127.0.0.1:${port}`
}

function withExternals<C extends NextConfigLike>(config: C): C {
  const listed = config.serverExternalPackages ?? []
  const added = EXTERNAL_PACKAGES.filter((name) => !listed.includes(name))
  return added.length === 0 ? config : { ...config, serverExternalPackages: [...listed, ...added] }
}

/**
 * Wraps a `next.config`: the routes checked when Next loads its config (a misspelt option stops
 * `next dev` at start-up with the option's name and the fix; under plain `next dev`, where only
 * `proxy.ts` can serve them, so does what `proxy.ts` cannot serve: a `ws` route, `on.proxyReq`,
 * `configure`, `agent`), `@cors-dev-proxy/core` kept out of
 * Next's server bundles, and, in `next dev`, `CORS_DEV_PROXY_URL` set so that `serverFetch` in
 * server components and route handlers reaches the routes. The routes themselves are served by
 * `createNextProxy` in `proxy.ts` or by `createNextServer`; give both the same routes (a module
 * of their own that each imports).
 *
 * @example
 * // next.config.mjs
 * import { withCorsDevProxy } from '@cors-dev-proxy/next'
 * import { routes } from './cors-dev-proxy.routes.mjs'
 * export default withCorsDevProxy({ reactStrictMode: true }, routes)
 */
export function withCorsDevProxy<C extends NextConfigLike>(
  nextConfig: NextConfigInput<C> = {} as C,
  routes?: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): (phase: string, context: { defaultConfig: NextConfigLike }) => Promise<C> {
  const resolved: readonly ResolvedRoute[] | undefined =
    routes === undefined ? undefined : checked(() => resolveOptions(routes, options).routes)
  return async function nextConfigWithCorsDevProxy(phase, context) {
    // Next evaluates proxy.ts at the first request it matches, where a refusal would be a 500
    // for every matched request after `✓ Ready`: under `next dev` (no createNextServer in this
    // process) the routes can only be proxy.ts's, so they are refused here, and Next stops.
    if (phase === PHASE_DEVELOPMENT_SERVER && resolved !== undefined && !runsUnderNextServer())
      checked(() => refuseProxyTsOptions(resolved))
    const config = typeof nextConfig === 'function' ? await nextConfig(phase, context) : nextConfig
    if (phase === PHASE_DEVELOPMENT_SERVER) publishNextDevUrl()
    return withExternals(config)
  }
}
