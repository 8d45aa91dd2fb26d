import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { HarFormatError, importHar } from '@cors-dev-proxy/core/adapter'
import type { CommandSpec } from '../args/command-spec.js'
import { CONFIG_FLAG } from '../args/config-flags.js'
import { formatHelp } from '../args/format-help.js'
import { parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { configRoute, routePrefix } from '../config/config-route.js'
import { type CommandContext, ioLogSink } from '../io.js'

/** `cors-dev-proxy import-har`: its flags, for the parser and `--help`. */
export const importHarSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'import-har',
  summary:
    'Turns a HAR (Chromium DevTools\' "Save all as HAR", or the inspector\'s export) into recordings a route with replay answers from.',
  usage: 'cors-dev-proxy import-har <file.har> --route PREFIX [flags]',
  positionals: [{ name: '<file.har>', description: 'the HAR file to import' }],
  flags: {
    route: {
      type: 'string',
      value: 'PREFIX',
      description:
        'the route whose recordings the entries become (entries outside its prefix are skipped); a route of the config file when there is one',
      example: 'devtools.har --route /api',
    },
    dir: {
      type: 'string',
      value: 'DIR',
      description:
        'the recordings folder (default: recordings.dir of the config file, else cors-dev-proxy/recordings)',
      example: 'devtools.har --route /api --dir test/recordings',
    },
    ...CONFIG_FLAG,
  },
  examples: [
    'cors-dev-proxy import-har devtools.har --route /api',
    'cors-dev-proxy import-har ./exports/session.har --route /api --dir test/recordings',
  ],
  notes: [
    "Then set replay: 'fallback' (or 'only') on the route. Secrets are masked as in recordings (recordings.mask).",
  ],
})

async function readHar(path: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      importHarSpec.examples[0],
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`${path} is not a HAR file: it is not JSON`, importHarSpec.examples[0])
  }
}

/**
 * Imports a HAR into the recordings of a route; returns 0, or throws a `UsageError` for a file
 * that is not a HAR or a route the config file does not have.
 *
 * @example
 * process.exitCode = await runImportHar({ argv: ['devtools.har', '--route', '/api'], cwd: process.cwd(), io: processIo })
 */
export async function runImportHar({ argv, cwd, io }: CommandContext): Promise<number> {
  const flags = parseFlags(importHarSpec, argv)
  if (flags.help) {
    io.out(formatHelp(importHarSpec))
    return 0
  }
  const [file] = flags.positionals
  const route = flags.string('route')
  if (file === undefined || route === undefined) {
    throw new UsageError('import-har needs a HAR file and --route PREFIX', importHarSpec.examples[0])
  }
  const prefix = routePrefix(route)
  // The route's recordings settings and match rules key the imported requests as the replay will.
  const found = await configRoute(
    cwd,
    prefix,
    flags.string('config'),
    (first) => `cors-dev-proxy import-har ${file} --route ${first}`,
  )
  const dir = flags.string('dir')
  const recordings = dir === undefined ? found.recordings : { ...found.recordings, dir }
  const match = found.route.match
  const path = resolve(cwd, file)
  const har = await readHar(path)
  let result: Awaited<ReturnType<typeof importHar>>
  try {
    result = await importHar(har, prefix, recordings, ioLogSink(io), cwd, match)
  } catch (error) {
    if (error instanceof HarFormatError)
      throw new UsageError(`${file} ${error.message}`, importHarSpec.examples[0])
    throw error
  }
  const skipped = [
    result.outside > 0 ? `${result.outside} outside ${prefix}` : '',
    result.unusable > 0 ? `${result.unusable} without an answer to replay` : '',
  ].filter(Boolean)
  io.out(
    `imported ${result.imported} ${result.imported === 1 ? 'entry' : 'entries'} of ${file} into ${result.files} recording ${result.files === 1 ? 'file' : 'files'} under ${resolve(cwd, recordings.dir)}${skipped.length > 0 ? `; skipped ${skipped.join(', ')}` : ''}`,
  )
  if (result.imported === 0) {
    io.err(
      `no entry of ${file} is under ${prefix}: check --route (a HAR's URLs are the page's, e.g. http://localhost:5173${prefix}/users)`,
    )
  }
  return 0
}
