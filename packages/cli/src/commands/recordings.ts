import type { CommandSpec } from '../args/command-spec.js'
import { CONFIG_FLAG } from '../args/config-flags.js'
import { closestName } from '../args/did-you-mean.js'
import { readMilliseconds } from '../args/flag-values.js'
import { formatHelp } from '../args/format-help.js'
import { invalidFlagValue, parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { configRoute, routePrefix } from '../config/config-route.js'
import type { CommandContext } from '../io.js'
import { verifyExitCode, verifyReportJson, verifyReportText } from '../verify/verify-report.js'
import { verifyRoute } from '../verify/verify-route.js'

/** `cors-dev-proxy recordings verify`: its flags, for the parser and `--help`. */
export const recordingsVerifySpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'recordings verify',
  summary:
    "Re-sends a route's recorded GET and HEAD requests to a live backend and reports what drifted: status class, content type, JSON fields missing, added or of another type.",
  usage: 'cors-dev-proxy recordings verify --route PREFIX --target URL [flags]',
  flags: {
    route: {
      type: 'string',
      value: 'PREFIX',
      description: 'the route whose recordings are checked; a route of the config file when there is one',
      example: '--route /api --target http://127.0.0.1:3000',
    },
    target: {
      type: 'string',
      value: 'URL',
      description:
        'the live backend the route forwards to: each recorded path (relative to the prefix) is appended to it',
      example: '--route /api --target https://staging.example.com',
    },
    dir: {
      type: 'string',
      value: 'DIR',
      description:
        'the recordings folder (default: recordings.dir of the config file, else cors-dev-proxy/recordings)',
      example: '--route /api --target http://127.0.0.1:3000 --dir test/recordings',
    },
    values: { type: 'boolean', description: 'compare values too (the exact status, every JSON value)' },
    update: {
      type: 'boolean',
      description: 'replace the last recorded answer of each drifted request with the live one (masked)',
    },
    json: { type: 'boolean', description: 'print the report as JSON' },
    timeout: {
      type: 'string',
      value: 'MS',
      description: 'milliseconds a request may go without a byte before it counts as unanswered',
      default: '30000',
      example: '--route /api --target http://127.0.0.1:3000 --timeout 5000',
    },
    header: {
      type: 'string',
      multiple: true,
      value: "'NAME: VALUE'",
      description: 'send this header with every request (a token for the backend; never written to disk)',
      example: "--route /api --target http://127.0.0.1:3000 --header 'Authorization: Bearer $TOKEN'",
    },
    ...CONFIG_FLAG,
  },
  examples: [
    'cors-dev-proxy recordings verify --route /api --target http://127.0.0.1:3000',
    'cors-dev-proxy recordings verify --route /api --target https://staging.example.com --json',
    'cors-dev-proxy recordings verify --route /api --target http://127.0.0.1:3000 --update',
  ],
  notes: [
    'Only GET and HEAD are sent, never a method with side effects; a request whose answers need a secret that is not on disk (a password, Basic credentials) is skipped and said so. Each is compared with the last answer recorded for it; an empty array has no structure to compare, and null matches any type.',
    'Exit code: 0 no drift (or all of it updated), 1 drift, 2 a mistake, a file that is not a recording or a request with no answer.',
  ],
})

/** The subcommands of `cors-dev-proxy recordings`. */
const SUBCOMMANDS = ['verify'] as const

function groupHelp(): string {
  return [
    'Usage: cors-dev-proxy recordings <subcommand> [flags]',
    '',
    'Subcommands:',
    `  verify  ${recordingsVerifySpec.summary}`,
    '',
    'cors-dev-proxy recordings verify --help for its flags.',
    '',
  ].join('\n')
}

function readTarget(value: string): URL {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '') {
    throw invalidFlagValue(
      recordingsVerifySpec,
      'target',
      value,
      'an http:// or https:// URL without a query',
    )
  }
  return url
}

function readHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const value of values) {
    const colon = value.indexOf(':')
    const name = colon > 0 ? value.slice(0, colon).trim() : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw invalidFlagValue(recordingsVerifySpec, 'header', value, "'NAME: VALUE'")
    }
    headers[name.toLowerCase()] = value.slice(colon + 1).trim()
  }
  return headers
}

async function runVerify({ argv, cwd, io }: CommandContext): Promise<number> {
  const spec = recordingsVerifySpec
  const flags = parseFlags(spec, argv)
  if (flags.help) {
    io.out(formatHelp(spec))
    return 0
  }
  const route = flags.string('route')
  const target = flags.string('target')
  if (route === undefined || target === undefined) {
    const missing = [route === undefined ? '--route PREFIX' : '', target === undefined ? '--target URL' : '']
    throw new UsageError(`recordings verify needs ${missing.filter(Boolean).join(' and ')}`, spec.examples[0])
  }
  const prefix = routePrefix(route)
  const url = readTarget(target)
  const headers = readHeaders(flags.strings('header'))
  const timeout = readMilliseconds(spec, 'timeout', flags.string('timeout') ?? '30000')
  const dir = flags.string('dir')
  const found = await configRoute(
    cwd,
    prefix,
    flags.string('config'),
    (first) => `cors-dev-proxy recordings verify --route ${first} --target ${target}`,
  )
  const recordings = dir === undefined ? found.recordings : { ...found.recordings, dir }
  const options = { values: flags.boolean('values'), update: flags.boolean('update'), headers, timeout }
  const result = await verifyRoute({ prefix, target: url, recordings, base: cwd, ...options })
  if (result.files === 0) {
    throw new UsageError(
      `no recordings of route '${prefix}' in ${result.folder}: record them first (record: true on the route), or give the folder that holds them with --dir`,
      `cors-dev-proxy recordings verify --route ${prefix} --target ${url.href} --dir test/recordings`,
    )
  }
  io.out(
    flags.boolean('json') ? verifyReportJson(result, cwd, prefix, url) : verifyReportText(result, cwd, url),
  )
  return verifyExitCode(result)
}

/**
 * `cors-dev-proxy recordings <subcommand>`: `verify` (the drift check), or the list of
 * subcommands. Resolves with the exit code (0 no drift, 1 drift, 2 a request unanswered or a
 * file unreadable); throws a `UsageError` for a mistake, which `runCli` prints with exit code 2.
 *
 * @example
 * process.exitCode = await runRecordings({ argv: ['verify', '--route', '/api', '--target', 'http://127.0.0.1:3000'], cwd: process.cwd(), io: processIo })
 */
export async function runRecordings(context: CommandContext): Promise<number> {
  const [subcommand, ...rest] = context.argv
  if (subcommand === 'verify') return runVerify({ ...context, argv: rest })
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h') {
    context.io.out(groupHelp())
    return subcommand === undefined ? 2 : 0
  }
  const guess = subcommand.startsWith('-') ? undefined : closestName(subcommand, SUBCOMMANDS)
  throw new UsageError(
    subcommand.startsWith('-')
      ? `\`recordings\` needs a subcommand before its flags (${SUBCOMMANDS.join(', ')})`
      : `unknown subcommand "recordings ${subcommand}"${guess === undefined ? ` (subcommands: ${SUBCOMMANDS.join(', ')})` : `: did you mean recordings ${guess}?`}`,
    recordingsVerifySpec.examples[0],
  )
}
