import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CorsDevProxyError } from '../../config/errors.js'
import { isPlainObject, quote } from '../../config/option-path.js'
import type { ResolvedRoute } from '../../config/resolved-route.js'
import { quoteNames } from './options/resolve-control.js'

/** The per-developer file that picks a route's target among its `targets` (git-ignored). */
export const TARGET_OVERRIDE_FILE = 'cors-dev-proxy.local.json'
/** The environment variable that does the same for one shell: `/api=staging,/auth=local`. */
export const TARGET_OVERRIDE_ENV = 'CORS_DEV_PROXY_TARGETS'

/** Where the overrides are read from; the process's working directory and environment by default. */
export interface TargetOverrideSources {
  readonly cwd?: string
  readonly env?: Readonly<Record<string, string | undefined>>
}

const FILE_EXAMPLE = `{ "targets": { "/api": "staging" } }`

/**
 * A bad pick in `cors-dev-proxy.local.json` or `CORS_DEV_PROXY_TARGETS`: a configuration error
 * (the CLI and the adapters treat it as one), whose `option` is the file or the variable, and
 * whose example is that file's or variable's text, not a value of the configuration.
 *
 * @example
 * throw new TargetOverrideError(TARGET_OVERRIDE_ENV, "picks 'stagin' for route '/api'", 'CORS_DEV_PROXY_TARGETS=/api=staging')
 */
export class TargetOverrideError extends CorsDevProxyError {
  constructor(source: string, problem: string, example?: string) {
    super('INVALID_OPTION', source, problem, example)
    this.name = 'TargetOverrideError'
  }
}

/** How a source writes a pick, for the example fix. */
function pickText(source: string, prefix: string, name: string): string {
  return source === TARGET_OVERRIDE_ENV
    ? `${TARGET_OVERRIDE_ENV}=${prefix}=${name}`
    : `{ "targets": { ${JSON.stringify(prefix)}: ${JSON.stringify(name)} } }`
}

/** `cors-dev-proxy.local.json`'s `targets`, or none when the file does not exist. */
function readOverrideFile(cwd: string): Array<[string, unknown]> {
  const file = join(cwd, TARGET_OVERRIDE_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new TargetOverrideError(file, `cannot be read: ${(error as Error).message}`, FILE_EXAMPLE)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new TargetOverrideError(file, `is not JSON: ${(error as Error).message}`, FILE_EXAMPLE)
  }
  if (!isPlainObject(parsed) || !isPlainObject(parsed.targets)) {
    throw new TargetOverrideError(
      file,
      'must hold { "targets": { <route prefix>: <target name> } }',
      FILE_EXAMPLE,
    )
  }
  return Object.entries(parsed.targets).map(([prefix, name]) => [prefix, name])
}

/** `CORS_DEV_PROXY_TARGETS`'s `prefix=name` pairs, comma-separated. */
function readOverrideEnv(value: string | undefined): Array<[string, unknown]> {
  if (value === undefined || value.trim() === '') return []
  return value.split(',').map((pair) => {
    const at = pair.lastIndexOf('=')
    if (at <= 0) {
      throw new TargetOverrideError(
        TARGET_OVERRIDE_ENV,
        `holds ${quote(pair.trim())}: write <route prefix>=<target name> pairs, comma-separated`,
        `${TARGET_OVERRIDE_ENV}=/api=staging`,
      )
    }
    return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]
  })
}

/** The route an override names, with the target it picks, or a clear error naming both lists. */
function overrideOf(routes: readonly ResolvedRoute[], prefix: string, name: unknown, source: string) {
  const wanted = prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix
  const switchable = routes.filter((route) => (route.control?.targets.length ?? 0) > 0)
  const route = switchable.find((candidate) => candidate.prefix === wanted)
  const first = switchable[0]
  if (route === undefined || route.control === undefined) {
    const known = switchable.map((candidate) => quote(candidate.prefix)).join(', ') || 'none'
    throw new TargetOverrideError(
      source,
      `names route ${quote(prefix)}, which has no \`targets\` (routes with targets: ${known})`,
      first === undefined ? undefined : pickText(source, first.prefix, first.control?.initial ?? ''),
    )
  }
  const choice = route.control.targets.find((target) => target.name === name)
  if (choice === undefined) {
    throw new TargetOverrideError(
      source,
      `picks ${typeof name === 'string' ? quote(name) : String(name)} for route ${quote(route.prefix)}, which knows the targets ${quoteNames(route.control.targets)}`,
      pickText(source, route.prefix, route.control.targets[0]?.name ?? ''),
    )
  }
  return { route, choice }
}

/**
 * Applies the per-developer target picks, once at start-up: `cors-dev-proxy.local.json` in the
 * working directory, then `CORS_DEV_PROXY_TARGETS` over it. A route picked gets that target as
 * its `target` and its `control.initial`. Nothing is read unless a route has `targets`. A bad
 * pick throws `CorsDevProxyError` naming the route and its known targets.
 *
 * @example
 * pickTargets(routes, { env: { CORS_DEV_PROXY_TARGETS: '/api=staging' } })
 */
export function pickTargets(
  routes: readonly ResolvedRoute[],
  sources: TargetOverrideSources = {},
): readonly ResolvedRoute[] {
  if (!routes.some((route) => (route.control?.targets.length ?? 0) > 0)) return routes
  const env = sources.env ?? process.env
  const picks = [
    ...readOverrideFile(sources.cwd ?? process.cwd()).map(([prefix, name]) => ({
      prefix,
      name,
      source: TARGET_OVERRIDE_FILE,
    })),
    ...readOverrideEnv(env[TARGET_OVERRIDE_ENV]).map(([prefix, name]) => ({
      prefix,
      name,
      source: TARGET_OVERRIDE_ENV,
    })),
  ]
  if (picks.length === 0) return routes
  const picked = new Map<ResolvedRoute, ResolvedRoute>()
  for (const { prefix, name, source } of picks) {
    const { route, choice } = overrideOf(routes, prefix, name, source)
    if (route.kind !== 'forward' || route.control === undefined) continue
    picked.set(
      route,
      Object.freeze({
        ...route,
        target: choice.url,
        websocketTarget: choice.websocket,
        socketPath: choice.socketPath,
        control: Object.freeze({ ...route.control, initial: choice.name }),
      }),
    )
  }
  return routes.map((route) => picked.get(route) ?? route)
}
