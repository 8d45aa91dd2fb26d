import { type CorsDevProxyConfig, CorsDevProxyError } from '@cors-dev-proxy/core'
import { type ResolvedCorsDevProxyOptions, resolveOptions } from '@cors-dev-proxy/core/adapter'
import type { ConfigFlags } from './apply-flags.js'

/** The flags, as the user typed them, that set the option a configuration error names. */
function flagsBehind(option: string, flags: ConfigFlags): string[] {
  const behind: string[] = []
  for (const [prefix, target] of flags.routes ?? []) {
    if (option.startsWith(`routes['${prefix}']`)) behind.push(`--route ${prefix}=${target}`)
  }
  for (const prefix of flags.mocks ?? [])
    if (option.startsWith(`routes['${prefix}']`)) behind.push(`--mock ${prefix}`)
  if (option.startsWith('options.cors')) {
    for (const origin of flags.corsOrigins ?? []) behind.push(`--cors-origin ${origin}`)
    if (flags.corsCredentials) behind.push('--cors-credentials')
    if (flags.cors && behind.length === 0) behind.push('--cors')
  }
  if (option.startsWith('options.log') && flags.log !== undefined) behind.push(`--log ${flags.log}`)
  return behind
}

/**
 * Resolves a command's configuration with the core, once, before anything starts. A
 * `CorsDevProxyError` about a value a flag set also names those flags, since its example is
 * written as configuration: `options.cors.origin is '*' with credentials ... (set by
 * --cors-origin * --cors-credentials)`.
 *
 * @example
 * const resolved = resolveConfig(applyFlags(loaded.config, flags), flags)
 */
export function resolveConfig(config: CorsDevProxyConfig, flags: ConfigFlags): ResolvedCorsDevProxyOptions {
  try {
    return resolveOptions(config)
  } catch (error) {
    if (error instanceof CorsDevProxyError) {
      const behind = flagsBehind(error.option, flags)
      if (behind.length > 0) error.message += `\n  Set on the command line by: ${behind.join(' ')}`
    }
    throw error
  }
}
