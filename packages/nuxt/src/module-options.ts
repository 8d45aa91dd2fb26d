import { type CorsDevProxyConfig, CorsDevProxyError, type Routes } from '@cors-dev-proxy/core'
import { type ResolvedCorsDevProxyOptions, resolveOptions } from '@cors-dev-proxy/core/adapter'

/**
 * What `corsDevProxy` in nuxt.config takes: `{ routes, ...options }` (the shape of
 * `cors-dev-proxy.config.*`), or the routes alone when no shared option is needed.
 *
 * @example
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: ['@cors-dev-proxy/nuxt'],
 *   corsDevProxy: { routes: { '/api': 'http://localhost:3000' }, cors: true },
 * })
 */
export type CorsDevProxyModuleOptions = CorsDevProxyConfig | Routes

const CONFIG_EXAMPLE = "corsDevProxy: { routes: { '/api': 'http://localhost:3000' } }"

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Resolves the module's options once, with the core's `resolveOptions`, so every mistake fails
 * when `nuxt dev` starts, as a `CorsDevProxyError` naming the option.
 *
 * Both shapes are unambiguous because a route prefix always starts with `/` and an option name
 * never does: an object with `routes` is a whole configuration, one whose keys all start with `/`
 * is the routes alone. Mixing the two (`{ '/api': ..., cors: true }`) is refused rather than
 * guessed, and so is no configuration at all (the module listed without `corsDevProxy`).
 *
 * @example
 * resolveModuleOptions({ '/api': 'http://localhost:3000' }).routes[0].prefix // '/api'
 * resolveModuleOptions({ routes: { '/api': 'http://localhost:3000' }, log: 'debug' }).log // 'debug'
 */
export function resolveModuleOptions(options: unknown): ResolvedCorsDevProxyOptions {
  if (!isObject(options) || Object.keys(options).length === 0) {
    throw new CorsDevProxyError(
      'INVALID_ROUTES',
      'corsDevProxy',
      'in nuxt.config has no route: the module is listed in `modules` but given nothing to proxy',
      CONFIG_EXAMPLE,
    )
  }
  const keys = Object.keys(options)
  const prefixes = keys.filter((key) => key.startsWith('/'))
  if (prefixes.length > 0 && prefixes.length < keys.length) {
    const others = keys.filter((key) => !key.startsWith('/'))
    throw new CorsDevProxyError(
      'INVALID_ROUTES',
      'corsDevProxy',
      `mixes route prefixes (${prefixes.map((key) => `'${key}'`).join(', ')}) with other keys ` +
        `(${others.join(', ')}): put the routes under \`routes\`, and the shared options beside it`,
      `corsDevProxy: { routes: { '${prefixes[0]}': 'http://localhost:3000' }, log: 'info' }`,
    )
  }
  return resolveOptions(options as CorsDevProxyModuleOptions)
}
