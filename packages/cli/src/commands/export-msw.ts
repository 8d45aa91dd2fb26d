import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { exportReplayData } from '@cors-dev-proxy/core/adapter'
import type { CommandSpec } from '../args/command-spec.js'
import { CONFIG_FLAG } from '../args/config-flags.js'
import { formatHelp } from '../args/format-help.js'
import { parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { configRoute, routePrefix } from '../config/config-route.js'
import { mswModule } from '../export/msw-module.js'
import type { CommandContext } from '../io.js'

/** `cors-dev-proxy export-msw`: its flags, for the parser and `--help`. */
export const exportMswSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'export-msw',
  summary:
    "Writes MSW handlers (one TypeScript module) that answer from a route's recordings and mocks, for Vitest and Storybook.",
  usage: 'cors-dev-proxy export-msw --route PREFIX [--out FILE] [flags]',
  flags: {
    route: {
      type: 'string',
      value: 'PREFIX',
      description:
        'the route whose recordings and mocks the handlers answer from; a route of the config file',
      example: '--route /api',
    },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'the module to write',
      default: 'cors-dev-proxy/msw/<route>.ts',
      example: '--route /api --out src/mocks/handlers.ts',
    },
    ...CONFIG_FLAG,
  },
  examples: [
    'cors-dev-proxy export-msw --route /api',
    'cors-dev-proxy export-msw --route /api --out src/mocks/handlers.ts',
  ],
  notes: [
    "The module exports handlers, resetReplay() and createHandlers(); it imports msw (2.11 or later) and @cors-dev-proxy/core/replay-session, and nothing from Node, so it runs under msw/node and in the browser. Unmatched requests are left to MSW's onUnhandledRequest. Run it again after recording: the same files give the same bytes.",
  ],
})

/** `/api` → `api`, `/v1/admin` → `v1-admin`, `/` → `root`. */
function defaultOut(prefix: string): string {
  const name = prefix.replace(/^\/+/, '').replace(/[^A-Za-z0-9._-]+/g, '-') || 'root'
  return `cors-dev-proxy/msw/${name}.ts`
}

const posix = (path: string) => path.split('\\').join('/')

/**
 * Writes the MSW module of a route; returns 0, or throws a `UsageError` for a missing `--route`
 * or a route the config file does not have.
 *
 * @example
 * process.exitCode = await runExportMsw({ argv: ['--route', '/api'], cwd: process.cwd(), io: processIo })
 */
export async function runExportMsw({ argv, cwd, io }: CommandContext): Promise<number> {
  const flags = parseFlags(exportMswSpec, argv)
  if (flags.help) {
    io.out(formatHelp(exportMswSpec))
    return 0
  }
  const given = flags.string('route')
  if (given === undefined) throw new UsageError('export-msw needs --route PREFIX', exportMswSpec.examples[0])
  const prefix = routePrefix(given)
  const { route, recordings } = await configRoute(
    cwd,
    prefix,
    flags.string('config'),
    (first) => `cors-dev-proxy export-msw --route ${first}`,
  )
  const exported = await exportReplayData(route, recordings, cwd)
  const out = resolve(cwd, flags.string('out') ?? defaultOut(prefix))
  const shown = (path: string) => posix(relative(cwd, path)) || '.'
  const text = mswModule(exported, {
    prefix,
    recordings: shown(exported.folders.recordings),
    mocks: exported.folders.mocks === undefined ? undefined : shown(exported.folders.mocks),
  })
  await mkdir(dirname(out), { recursive: true })
  await writeFile(out, text)
  const { data } = exported
  io.out(
    `wrote ${out}: MSW handlers for ${prefix} from ${data.recordings.length} recording ${data.recordings.length === 1 ? 'file' : 'files'} and ${data.mocks.length} ${data.mocks.length === 1 ? 'mock' : 'mocks'}`,
  )
  for (const note of exported.notes) io.err(`left out: ${note}`)
  return 0
}
