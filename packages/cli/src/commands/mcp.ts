import { SERVER_URL_VARIABLE } from '@cors-dev-proxy/core'
import type { CommandSpec } from '../args/command-spec.js'
import { formatHelp } from '../args/format-help.js'
import { parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import type { CommandContext } from '../io.js'

/** `cors-dev-proxy mcp`: its flags, for the parser and `--help`. */
export const mcpSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'mcp',
  summary:
    "Serves a running dev server's inspector to a coding agent over the Model Context Protocol (stdio): its calls, why one failed, and the routes' live switches.",
  usage: 'cors-dev-proxy mcp [--url URL]',
  flags: {
    url: {
      type: 'string',
      value: 'URL',
      description: `the dev server's origin (default: $${SERVER_URL_VARIABLE}, which the adapters set in the dev server's own process)`,
      example: 'mcp --url http://localhost:5173',
    },
  },
  examples: [
    'cors-dev-proxy mcp --url http://localhost:5173',
    'cors-dev-proxy mcp --url https://localhost:8443',
  ],
  notes: [
    'Started by the agent, not by you: add it to its MCP configuration, e.g.',
    '  { "mcpServers": { "cors-dev-proxy": { "command": "npx", "args": ["cors-dev-proxy", "mcp", "--url", "http://localhost:5173"] } } }',
    'The dev server need not run when the agent starts it: each tool reaches it when called. Only the protocol goes to stdout; diagnostics go to stderr.',
  ],
})

/** The dev server's origin from `--url` or the environment, checked: an http(s) URL, its origin only. */
export function mcpOrigin(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = flag ?? env[SERVER_URL_VARIABLE]
  const example = mcpSpec.examples[0] as string
  if (given === undefined || given === '') {
    throw new UsageError(
      `mcp needs the dev server's URL: pass --url (${SERVER_URL_VARIABLE} is not set in this environment)`,
      example,
    )
  }
  const source = flag === undefined ? SERVER_URL_VARIABLE : '--url'
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(
      `${source} must be the dev server's URL, like http://localhost:5173; got "${given}"`,
      example,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source} must be an http:// or https:// URL; got "${given}"`, example)
  }
  return url.origin
}

/**
 * Serves the MCP tools over stdio until the agent closes the connection (or `stop` settles);
 * resolves 0. The MCP SDK is loaded here only, so no other command pays for it.
 *
 * @example
 * process.exitCode = await runMcp({ argv: ['--url', 'http://localhost:5173'], cwd: process.cwd(), io: processIo })
 */
export async function runMcp({ argv, io, stop }: CommandContext): Promise<number> {
  const flags = parseFlags(mcpSpec, argv)
  if (flags.help) {
    io.out(formatHelp(mcpSpec))
    return 0
  }
  const origin = mcpOrigin(flags.string('url'), process.env)
  const { serveMcpOnStdio } = await import('../mcp/mcp-server.js')
  await serveMcpOnStdio(origin, io.err, stop)
  return 0
}
