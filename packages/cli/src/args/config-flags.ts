import { parseOrigin } from '@cors-dev-proxy/core'
import type { ConfigFlags } from '../config/apply-flags.js'
import type { CommandSpec, FlagSpec } from './command-spec.js'
import { readLogLevel, readMockPrefix, readRoute } from './flag-values.js'
import type { ParsedFlags } from './parse-flags.js'
import { UsageError } from './usage-error.js'

/** `--config`: every command that reads the configuration file takes it. */
export const CONFIG_FLAG: Readonly<Record<string, FlagSpec>> = Object.freeze<Record<string, FlagSpec>>({
  config: {
    type: 'string',
    value: 'FILE',
    description:
      'configuration file (default: cors-dev-proxy.config.{ts,mts,js,mjs,cjs,json} in the working directory)',
    example: '--config ./cors-dev-proxy.config.mjs',
  },
})

/** `--route`: a route given on the command line, over the file's. */
export const ROUTE_FLAG: Readonly<Record<string, FlagSpec>> = Object.freeze<Record<string, FlagSpec>>({
  route: {
    type: 'string',
    multiple: true,
    value: 'PREFIX=TARGET',
    description:
      'proxy a path prefix to a target, prefix removed: /api/users → http://127.0.0.1:3000/users; a ws:// target forwards WebSockets too',
    example: '--route /api=http://127.0.0.1:3000',
  },
})

/** The CORS flags: the shared `cors` option. */
export const CORS_FLAGS: Readonly<Record<string, FlagSpec>> = Object.freeze<Record<string, FlagSpec>>({
  cors: {
    type: 'boolean',
    description: 'answer preflights and add CORS headers on every route (origins: localhost and loopback)',
  },
  'cors-origin': {
    type: 'string',
    multiple: true,
    value: 'ORIGIN',
    description: 'allow this origin instead (implies --cors); * allows any origin',
    example: '--cors-origin http://localhost:5173',
  },
  'cors-credentials': {
    type: 'boolean',
    description: 'send Access-Control-Allow-Credentials: true (implies --cors)',
  },
})

/**
 * Reads `--route`, `--mock`, `--cors`, `--cors-origin`, `--cors-credentials` and `--log` (those
 * the command has) into what {@link applyFlags} takes, checking each value.
 *
 * @example
 * readConfigFlags(serveSpec, flags) // { routes: [['/api', 'http://127.0.0.1:3000']], cors: true }
 */
export function readConfigFlags(spec: CommandSpec, flags: ParsedFlags): ConfigFlags {
  const example = (name: string) => `cors-dev-proxy ${spec.name} ${spec.flags[name]?.example ?? `--${name}`}`
  const corsOrigins = flags.strings('cors-origin')
  for (const origin of corsOrigins) {
    const parsed = origin === '*' ? undefined : parseOrigin(origin)
    if (origin !== '*' && (parsed === null || parsed?.opaque)) {
      throw new UsageError(
        `--cors-origin must be an origin, scheme://host[:port] without a path, or *; got ${JSON.stringify(origin)}`,
        example('cors-origin'),
      )
    }
  }
  const log = flags.string('log')
  return {
    routes: flags.strings('route').map((value) => readRoute(value, example('route'))),
    mocks: flags.strings('mock').map((value) => readMockPrefix(value, example('mock'))),
    cors: flags.boolean('cors'),
    corsOrigins,
    corsCredentials: flags.boolean('cors-credentials'),
    log: log === undefined ? undefined : readLogLevel(spec, log),
  }
}

/** `--log`: the log level, over the file's `log`. */
export const LOG_FLAG: Readonly<Record<string, FlagSpec>> = Object.freeze<Record<string, FlagSpec>>({
  log: {
    type: 'string',
    value: 'LEVEL',
    description: 'silent, error, warn, info or debug (one line per request, both hops)',
    default: 'info',
    example: '--log debug',
  },
})
