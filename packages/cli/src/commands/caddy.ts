import type { CommandSpec } from '../args/command-spec.js'
import { renderCaddy } from '../export/caddy.js'
import type { CommandContext } from '../io.js'
import { EXPORT_FLAGS, runExport } from './export-command.js'

/** `cors-dev-proxy caddy`: its flags, for the parser and `--help`. */
export const caddySpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'caddy',
  summary: 'Prints the routes as a Caddyfile site block.',
  usage: 'cors-dev-proxy caddy [flags] > Caddyfile',
  flags: EXPORT_FLAGS,
  examples: [
    'cors-dev-proxy caddy --route /api=http://127.0.0.1:3000 --listen 8080',
    'cors-dev-proxy caddy --config ./cors-dev-proxy.config.ts --server-name app.example.test',
  ],
})

/**
 * Prints the Caddyfile site block of the routes; returns 0.
 *
 * @example
 * process.exitCode = await runCaddy({ argv: ['--listen', '8080'], cwd: process.cwd(), io: processIo })
 */
export function runCaddy(context: CommandContext): Promise<number> {
  return runExport(caddySpec, renderCaddy, context)
}
