import { basename } from 'node:path'
import type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
import {
  type ResolvedForwardRoute,
  type ResolvedRecordingsOptions,
  resolveOptions,
} from '@cors-dev-proxy/core/adapter'
import { UsageError } from '../args/usage-error.js'
import { loadConfig } from './load-config.js'

/** A forwarding route the commands on recordings work on, with the recordings settings it is read with. */
export interface ConfigRoute {
  readonly route: ResolvedForwardRoute
  readonly recordings: ResolvedRecordingsOptions
}

/**
 * `--route`'s value as a route prefix: a leading slash, no trailing one.
 *
 * @example
 * routePrefix('api/') // '/api'
 */
export function routePrefix(prefix: string): string {
  const withSlash = prefix.startsWith('/') ? prefix : `/${prefix}`
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash
}

/**
 * The route of `prefix` as the proxy would run it: the config file's (`--config`, or the one found
 * in `cwd`), whose recordings settings and match rules the command must share with the dev server;
 * without a config file, a bare route with the default settings. A prefix the file does not have
 * is a `UsageError` listing its routes, with `fix(first route)` as the corrected command.
 *
 * @example
 * const { route, recordings } = await configRoute(process.cwd(), '/api', undefined, (p) => `cors-dev-proxy export-msw --route ${p}`)
 */
export async function configRoute(
  cwd: string,
  prefix: string,
  config: string | undefined,
  fix: (prefix: string) => string,
): Promise<ConfigRoute> {
  const loaded = await loadConfig(cwd, config)
  if (loaded.path === undefined) {
    const resolved = resolveOptions({ [prefix]: 'http://localhost' })
    return { route: resolved.routes[0] as ResolvedForwardRoute, recordings: resolved.recordings }
  }
  const resolved = resolveOptions(loaded.config as CorsDevProxyConfig)
  const forward = resolved.routes.filter((one): one is ResolvedForwardRoute => one.kind === 'forward')
  const route = forward.find((one) => one.prefix === prefix)
  if (route === undefined) {
    const prefixes = forward.map((one) => one.prefix)
    const other = resolved.routes.some((one) => one.prefix === prefix)
    throw new UsageError(
      `route '${prefix}' is ${other ? 'not a forwarding route of' : 'not in'} ${basename(loaded.path)} (its routes: ${prefixes.join(', ') || 'none'})`,
      fix(prefixes[0] ?? '/api'),
    )
  }
  return { route, recordings: resolved.recordings }
}
