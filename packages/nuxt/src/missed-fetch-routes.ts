import type { ResolvedRoute } from '@cors-dev-proxy/core/adapter'
import { addServerPlugin, addServerTemplate, createResolver } from '@nuxt/kit'
import type { MissedFetchRoute } from './runtime/missed-fetch-hint.js'

/** The id of the server template, imported by `runtime/missed-fetch-plugin.ts`. */
const ROUTES_TEMPLATE = '#cors-dev-proxy/missed-fetch-routes'

/** A target as the terminal shows it: `http://localhost:8080`, `https://api.example.com/v2/`. */
function targetText(target: URL): string {
  return target.pathname === '/' ? target.origin : `${target.origin}${target.pathname}`
}

/**
 * What the hint in Nitro's worker knows of each route: its prefix, and its target as the message
 * shows it.
 *
 * @example
 * missedFetchRoutes(resolveOptions({ '/api': 'http://localhost:8080' }).routes)
 * // [{ prefix: '/api', target: 'http://localhost:8080' }]
 */
export function missedFetchRoutes(routes: readonly ResolvedRoute[]): MissedFetchRoute[] {
  return routes.map((route) => ({
    prefix: route.prefix,
    target: route.kind === 'forward' ? targetText(route.target) : 'its mock backend',
  }))
}

/**
 * Adds, in `nuxt dev`, the Nitro plugin that explains a server-side `$fetch` of a route's path
 * (it reaches Nitro's own router, never the proxy in front of Nitro) and the template that tells
 * it the routes.
 *
 * Why a server template (a virtual module of Nitro's bundle) rather than a private key of
 * `runtimeConfig`: the routes are known when the module runs and never change at runtime, a
 * template holds them as they are (no `NUXT_*` variable can override them, and they stay out of
 * the user's `useRuntimeConfig()`), and the plugin reads them without importing Nitro's runtime.
 * Nitro 2 bundles a module's plugin because Nuxt lists every installed module's folder in
 * `build.transpile`, which Nitro inlines; the bundle resolves `#…` ids from `nitro.virtual`.
 * `addServerPlugin` rather than kit 4.6's `addNitroPlugin`, which kit 4.5 does not have.
 *
 * @example
 * if (nuxt.options.dev) addMissedFetchHint(resolved.routes)
 */
export function addMissedFetchHint(routes: readonly ResolvedRoute[]): void {
  const contents = `export const routes = ${JSON.stringify(missedFetchRoutes(routes))}\n`
  addServerTemplate({ filename: ROUTES_TEMPLATE, getContents: () => contents })
  addServerPlugin(createResolver(import.meta.url).resolve('./runtime/missed-fetch-plugin'))
}
