import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import type { CommandSpec, FlagSpec } from '../args/command-spec.js'
import { CONFIG_FLAG, CORS_FLAGS, ROUTE_FLAG, readConfigFlags } from '../args/config-flags.js'
import { formatHelp } from '../args/format-help.js'
import { invalidFlagValue, parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { applyFlags } from '../config/apply-flags.js'
import { loadConfig } from '../config/load-config.js'
import { resolveConfig } from '../config/resolve-config.js'
import { devOnlyNotes } from '../export/dev-only-notes.js'
import type { ExportOptions } from '../export/export-options.js'
import { routeLabel } from '../export/route-plan.js'
import type { CommandContext } from '../io.js'

/** Renders the resolved routes as a production proxy's configuration. */
export type Renderer = (resolved: ResolvedCorsDevProxyOptions, options: ExportOptions) => string

/** The flags `nginx` and `caddy` share. */
export const EXPORT_FLAGS: Readonly<Record<string, FlagSpec>> = Object.freeze<Record<string, FlagSpec>>({
  listen: {
    type: 'string',
    value: 'ADDRESS:PORT',
    description: 'where the exported server listens: a port, or an address and a port',
    default: '8080',
    example: '--listen 127.0.0.1:8080',
  },
  'server-name': {
    type: 'string',
    value: 'NAME',
    description: 'the server name (nginx server_name, the Caddy site address)',
    example: '--server-name app.example.test',
  },
  ...ROUTE_FLAG,
  ...CORS_FLAGS,
  ...CONFIG_FLAG,
})

const PORT = /^\d{1,5}$/
const ADDRESS_AND_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/

/**
 * A `--listen` value: `8080`, `127.0.0.1:8080` or `[::1]:8080`, with a port from 1 to 65535.
 *
 * @example
 * readListen(nginxSpec, '127.0.0.1:8080') // '127.0.0.1:8080'
 */
export function readListen(spec: CommandSpec, value: string): string {
  const port = PORT.test(value) ? value : ADDRESS_AND_PORT.exec(value)?.[2]
  if (port === undefined || Number(port) < 1 || Number(port) > 65_535) {
    throw invalidFlagValue(spec, 'listen', value, 'a port (8080) or an address and a port (127.0.0.1:8080)')
  }
  return value
}

/**
 * Runs an export command: loads the configuration, applies the flags, resolves it with the
 * core (a mistake is reported as for `serve`), and prints what the renderer makes of it. The
 * resolution's warnings go to stderr, so stdout stays a file to `include`.
 *
 * @example
 * return runExport(nginxSpec, renderNginx, context)
 */
export async function runExport(
  spec: CommandSpec,
  render: Renderer,
  { argv, cwd, io }: CommandContext,
): Promise<number> {
  const flags = parseFlags(spec, argv)
  if (flags.help) {
    io.out(formatHelp(spec))
    return 0
  }
  const listen = readListen(spec, flags.string('listen') ?? '8080')
  const serverName = flags.string('server-name')
  const loaded = await loadConfig(cwd, flags.string('config'))
  const configFlags = readConfigFlags(spec, flags)
  const config = applyFlags(loaded.config, configFlags)
  if (Object.keys(config.routes).length === 0) {
    throw new UsageError(
      'no routes to export: give a --route, or write a cors-dev-proxy.config.* file',
      spec.examples[0],
    )
  }
  const resolved = resolveConfig(config, configFlags)
  for (const warning of resolved.warnings) io.err(`[cors-dev-proxy] ${warning}`)
  for (const route of resolved.routes) {
    if (route.kind !== 'forward') continue
    for (const note of devOnlyNotes(route, routeLabel(route.prefix))) io.err(`[cors-dev-proxy] ${note}`)
  }
  io.out(render(resolved, { listen, serverName }))
  return 0
}
