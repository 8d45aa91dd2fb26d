import type { CommandSpec } from '../args/command-spec.js'
import { renderNginx } from '../export/nginx.js'
import type { CommandContext } from '../io.js'
import { EXPORT_FLAGS, runExport } from './export-command.js'

/** `cors-dev-proxy nginx`: its flags, for the parser and `--help`. */
export const nginxSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'nginx',
  summary:
    'Prints the routes as nginx configuration for the http {} context: upstreams and one server block.',
  usage: 'cors-dev-proxy nginx [flags] > cors-dev-proxy.nginx.conf',
  flags: EXPORT_FLAGS,
  examples: [
    'cors-dev-proxy nginx --route /api=http://127.0.0.1:3000 --listen 8080',
    'cors-dev-proxy nginx --config ./cors-dev-proxy.config.ts --server-name app.example.test',
  ],
  notes: ["Include the output in nginx's http {} context: include /etc/nginx/cors-dev-proxy.nginx.conf;"],
})

/**
 * Prints the nginx configuration of the routes; returns 0.
 *
 * @example
 * process.exitCode = await runNginx({ argv: ['--listen', '8080'], cwd: process.cwd(), io: processIo })
 */
export function runNginx(context: CommandContext): Promise<number> {
  return runExport(nginxSpec, renderNginx, context)
}
