import type { CorsDevProxyConfig, CorsOptions, LogLevel, RouteConfig, Routes } from '@cors-dev-proxy/core'

/** What the route-related flags of `serve`, `nginx` and `caddy` say, already checked. */
export interface ConfigFlags {
  /** `--route PREFIX=TARGET`, in order. */
  readonly routes?: readonly (readonly [prefix: string, target: string])[]
  /** `--mock PREFIX`, in order. */
  readonly mocks?: readonly string[]
  /** `--cors`: CORS on every route (the core's default policy: localhost and loopback origins). */
  readonly cors?: boolean
  /** `--cors-origin`: the origins allowed instead of the default (implies `--cors`). */
  readonly corsOrigins?: readonly string[]
  /** `--cors-credentials`: send `Access-Control-Allow-Credentials: true` (implies `--cors`). */
  readonly corsCredentials?: boolean
  /** `--log`. */
  readonly log?: LogLevel
}

/** `/api` and `/api/` are the same prefix to the core: a flag's route replaces the file's either way. */
function samePrefix(a: string, b: string): boolean {
  const trim = (prefix: string) => (prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix)
  return trim(a) === trim(b)
}

/** The shared `cors` option once the CORS flags are applied over the file's. */
function corsWithFlags(current: CorsDevProxyConfig['cors'], flags: ConfigFlags): CorsDevProxyConfig['cors'] {
  const origins = flags.corsOrigins ?? []
  if (origins.length === 0 && !flags.corsCredentials) return flags.cors ? (current ?? true) : current
  const base: CorsOptions = typeof current === 'object' && current !== null ? { ...current } : {}
  if (origins.length > 0) base.origin = origins.length === 1 ? (origins[0] as string) : [...origins]
  if (flags.corsCredentials) base.credentials = true
  return base
}

/**
 * The configuration a command runs with: the file's `{ routes, ...options }` with the flags
 * applied over it. A `--route` or `--mock` replaces the file's route of the same prefix and adds
 * the others; the CORS flags set the shared `cors` option (a route's own `cors` still wins, as
 * in the file); `--log` replaces `log`. The file's objects are copied, never changed.
 *
 * @example
 * applyFlags({ routes: { '/api': 'http://localhost:3000' } }, { routes: [['/api', 'http://127.0.0.1:4000']], cors: true })
 * // { routes: { '/api': 'http://127.0.0.1:4000' }, cors: true }
 */
export function applyFlags(
  config: Readonly<Partial<CorsDevProxyConfig>>,
  flags: ConfigFlags,
): CorsDevProxyConfig {
  const routes: Record<string, RouteConfig> = { ...((config.routes ?? {}) as Routes) }
  const put = (prefix: string, route: RouteConfig) => {
    for (const key of Object.keys(routes)) if (samePrefix(key, prefix)) delete routes[key]
    routes[prefix] = route
  }
  for (const [prefix, target] of flags.routes ?? []) put(prefix, target)
  // A mock route also answers WebSocket upgrades on <prefix>/ws with the mock's echo.
  for (const prefix of flags.mocks ?? []) put(prefix, { mock: true, ws: true })
  const result: CorsDevProxyConfig = { ...config, routes }
  const cors = corsWithFlags(config.cors, flags)
  if (cors !== undefined) result.cors = cors
  if (flags.log !== undefined) result.log = flags.log
  return result
}
