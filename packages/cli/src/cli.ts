/*
 * The CLI, `cors-dev-proxy <command>`: bin.ts runs this file, which picks the command and turns
 * every mistake into exit code 2 with a working example (a `UsageError`, the core's
 * `CorsDevProxyError`, a `ConfigFileError`), never a stack trace. Each command is a spec (its
 * flags, for the parser and `--help`) and a `run…` function in commands/, loaded only when it
 * runs; what commands share has a folder of its own, each opening with its details:
 *
 * - args/: flag specs, the parser with did-you-mean, value readers, `--help` text;
 * - config/: finding and loading `cors-dev-proxy.config.*`, flags over the file, resolution;
 * - serve/: `startServe` and its parts, and Caddy as the HTTP/3 front;
 * - check/: `check`, the core's browser model on a real URL, and its report;
 * - export/: the nginx and Caddy renderings of the resolved routes;
 * - mcp/: the `mcp` command's MCP server over a dev server's inspector;
 * - verify/: `recordings verify`, the drift check of a route's recordings against a live backend.
 *
 * The CLI imports only `@cors-dev-proxy/core` and `@cors-dev-proxy/core/adapter`
 * (test/imports.test.ts). Its tests run the built binary in a child process where the process
 * is the point (exit codes, signals, a `.ts` config), and `runCli` in the test's own process
 * otherwise (test/support/cli-server-here.ts), each suite running the binary at least once.
 */
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import pc from 'picocolors'
import type { CommandSpec } from './args/command-spec.js'
import { closestName } from './args/did-you-mean.js'
import { UsageError } from './args/usage-error.js'
import { ConfigFileError } from './config/config-file-error.js'
import { type CliIo, type CommandContext, processIo } from './io.js'
import { VERSION } from './version.js'

/** A command: its spec (flags, help) and what runs it; resolves with the exit code. */
interface Command {
  readonly spec: CommandSpec
  readonly run: (context: CommandContext) => Promise<number>
}

/**
 * The commands by name, each loaded only when it runs: a command's module brings its own
 * dependencies (the config loader, the static server, the exports), and `check`, started once
 * per call in scripts and in the browser matrix's test, starts in about half the time without
 * the others'.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Command>]> = [
  ['serve', async () => import('./commands/serve.js').then((m) => ({ spec: m.serveSpec, run: m.runServe }))],
  ['mock', async () => import('./commands/mock.js').then((m) => ({ spec: m.mockSpec, run: m.runMock }))],
  ['check', async () => import('./commands/check.js').then((m) => ({ spec: m.checkSpec, run: m.runCheck }))],
  ['nginx', async () => import('./commands/nginx.js').then((m) => ({ spec: m.nginxSpec, run: m.runNginx }))],
  ['caddy', async () => import('./commands/caddy.js').then((m) => ({ spec: m.caddySpec, run: m.runCaddy }))],
  [
    'import-har',
    async () =>
      import('./commands/import-har.js').then((m) => ({ spec: m.importHarSpec, run: m.runImportHar })),
  ],
  [
    'export-msw',
    async () =>
      import('./commands/export-msw.js').then((m) => ({ spec: m.exportMswSpec, run: m.runExportMsw })),
  ],
  ['mcp', async () => import('./commands/mcp.js').then((m) => ({ spec: m.mcpSpec, run: m.runMcp }))],
  [
    'recordings',
    async () =>
      import('./commands/recordings.js').then((m) => ({
        spec: m.recordingsVerifySpec,
        run: m.runRecordings,
      })),
  ],
]

const COMMAND_NAMES = COMMANDS.map(([name]) => name)

/** The exit code of a mistake in the arguments or the configuration. */
export const USAGE_EXIT_CODE = 2

async function mainHelp(): Promise<string> {
  const specs = await Promise.all(COMMANDS.map(async ([, load]) => (await load()).spec))
  const width = Math.max(...specs.map((spec) => spec.name.length)) + 2
  return [
    'Usage: cors-dev-proxy <command> [flags]',
    '',
    'Cross-origin calls that just work in development, and explained when they do not.',
    '',
    'Commands:',
    ...specs.map((spec) => `  ${spec.name.padEnd(width)} ${spec.summary}`),
    '',
    'Global flags:',
    '  -h, --help     show help (cors-dev-proxy <command> --help for a command)',
    '  -v, --version  print the version',
    '',
    'Every command reads cors-dev-proxy.config.{ts,mts,js,mjs,cjs,json} from the working directory',
    '(or --config FILE) where it needs routes; flags override the file.',
    '',
  ].join('\n')
}

/** Prints a mistake the way every command does: the message, a working example, where help is. */
function printUsageError(io: CliIo, error: UsageError, command: string | undefined): void {
  const lines = [`${pc.red('error')} ${error.message}`]
  if (error.example !== undefined) lines.push(`  example: ${error.example}`)
  lines.push(`  see: cors-dev-proxy ${command === undefined ? '' : `${command} `}--help`)
  io.err(lines.join('\n'))
}

/**
 * The whole command line: `--version`, `--help`, or a command with its arguments. Resolves with
 * the exit code: 0 on success, 2 for a mistake in the arguments or the configuration (printed
 * with the fix, never with a stack trace), and each command's own codes (`check`: 1 blocked, 2
 * unreachable). `serve` and `mock` resolve when they were stopped: by SIGINT or SIGTERM, or by
 * `stop` when it is given (see {@link CommandContext.stop}).
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2))
 */
export async function runCli(
  argv: readonly string[],
  options: { readonly cwd?: string; readonly io?: CliIo; readonly stop?: Promise<NodeJS.Signals> } = {},
): Promise<number> {
  const io = options.io ?? processIo
  const cwd = options.cwd ?? process.cwd()
  const [first, ...rest] = argv
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.out(await mainHelp())
    return first === undefined ? USAGE_EXIT_CODE : 0
  }
  if (first === '--version' || first === '-v') {
    io.out(VERSION)
    return 0
  }
  const load = COMMANDS.find(([name]) => name === first)?.[1]
  let command: Command | undefined
  try {
    if (load === undefined) {
      const names = COMMAND_NAMES
      const guess = first.startsWith('-') ? undefined : closestName(first, names)
      throw new UsageError(
        first.startsWith('-')
          ? `${first} is not a global flag: a command comes first (${names.join(', ')})`
          : `unknown command "${first}"${guess === undefined ? ` (commands: ${names.join(', ')})` : `: did you mean ${guess}?`}`,
        `cors-dev-proxy ${guess ?? 'serve'} --help`,
      )
    }
    command = await load()
    return await command.run({ argv: rest, cwd, io, stop: options.stop })
  } catch (error) {
    if (error instanceof UsageError) {
      printUsageError(io, error, command?.spec.name)
      return USAGE_EXIT_CODE
    }
    if (error instanceof CorsDevProxyError || error instanceof ConfigFileError) {
      io.err(error.message)
      return USAGE_EXIT_CODE
    }
    // Anything else is a failure at run time (a port in use...): its message says what to do.
    io.err(`${pc.red('error')} ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}
