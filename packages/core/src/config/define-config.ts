import { isPlainObject } from './option-path.js'
import type { CorsDevProxyOptions, Routes } from './options.js'

/**
 * The whole configuration in one object, as `cors-dev-proxy.config.*` exports it: the routes
 * and the shared options side by side. Both adapters, `createCorsDevProxy` and the CLI accept
 * it, so a dev server and the CLI's commands share one file.
 *
 * @example
 * export default defineConfig({ routes: { '/api': 'http://localhost:3000' }, cors: true })
 */
export interface CorsDevProxyConfig extends CorsDevProxyOptions {
  /** Path prefix → target or route object, as the first argument of `corsDevProxy`. */
  routes: Routes
}

/**
 * Types a configuration file's object (it returns it as it is), like Vite's `defineConfig`.
 *
 * @example
 * // cors-dev-proxy.config.ts
 * import { defineConfig } from '@cors-dev-proxy/core'
 * export default defineConfig({ routes: { '/api': 'http://localhost:3000' }, log: 'debug' })
 */
export function defineConfig(config: CorsDevProxyConfig): CorsDevProxyConfig {
  // Not generic: a type parameter would take `{ corz: true }` as a wider config, where the
  // object literal against the type itself names the typo at compile time.
  return config
}

/**
 * Reads the two ways of calling `corsDevProxy`: `(routes, options?)`, or one config object whose
 * `routes` key holds the routes (a route prefix always starts with `/`, so `routes` is never
 * one). Returns the routes and the options, the caller's objects untouched.
 *
 * @example
 * splitConfig({ routes: { '/api': 'http://localhost:3000' }, log: 'debug' })
 * // [{ '/api': 'http://localhost:3000' }, { log: 'debug' }]
 */
export function splitConfig<O extends object = CorsDevProxyOptions>(
  first: Routes | (O & { routes: Routes }),
  second?: O,
): [routes: Routes, options: O | undefined] {
  if (second === undefined && isPlainObject(first) && Object.hasOwn(first, 'routes')) {
    const { routes, ...options } = first as O & { routes: Routes }
    return [routes, options as O]
  }
  return [first as Routes, second]
}
