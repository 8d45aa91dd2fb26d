/*
 * What the front ends resolve a configuration with (and what `@cors-dev-proxy/core/adapter`
 * exports as `resolveOptions`): the configuration's values, resolved by config/ without reading
 * anything, then what start-up adds to them from the layers that run it: each route `logger`'s
 * hooks (log/request-logger.ts) and the per-developer target picks read from
 * `cors-dev-proxy.local.json` and `CORS_DEV_PROXY_TARGETS` (stand-ins/control/target-overrides.ts).
 */
import type { CorsDevProxyConfig } from '../config/define-config.js'
import type { CorsDevProxyOptions, Routes } from '../config/options.js'
import { resolveOptions } from '../config/resolve-options.js'
import type { ResolvedCorsDevProxyOptions } from '../config/resolved-route.js'
import { withRequestLogger } from '../log/request-logger.js'
import { pickTargets } from '../stand-ins/control/target-overrides.js'

/**
 * Validates and resolves the whole configuration once (see config's `resolveOptions`), with
 * each route's `logger` hooked in and the developer's target picks applied. Throws
 * `CorsDevProxyError` for a mistake in the configuration or in a pick, naming it.
 *
 * @example
 * const { routes } = resolveProxyOptions({ '/api': { targets: { local: 'http://localhost:3000', staging: 'https://staging.example.com' } } })
 */
export function resolveProxyOptions(
  routesOrConfig: Routes | CorsDevProxyConfig,
  sharedOptions?: CorsDevProxyOptions,
): ResolvedCorsDevProxyOptions {
  const resolved = resolveOptions(routesOrConfig, sharedOptions)
  return Object.freeze({
    ...resolved,
    routes: Object.freeze(pickTargets(resolved.routes.map(withRequestLogger))),
  })
}
