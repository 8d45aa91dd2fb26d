import type { IncomingMessage, ServerResponse } from 'node:http'
import { type MockCorsMode, parseOrigin, startMockBackend } from '@cors-dev-proxy/core'
import pc from 'picocolors'
import type { CommandSpec } from '../args/command-spec.js'
import { readPort } from '../args/flag-values.js'
import { formatHelp } from '../args/format-help.js'
import { invalidFlagValue, parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import type { CommandContext } from '../io.js'
import { formatServerUrls, serverUrls } from '../serve/server-urls.js'
import { stopRequested } from '../serve/stop-requested.js'
import { VERSION } from '../version.js'
import { MOCK_PATHS, MOCK_SWITCHES } from './mock-switches.js'

const MODES: readonly string[] = ['off', 'reflect', 'wildcard']

/** `cors-dev-proxy mock`: its flags, for the parser and `--help`. */
export const mockSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'mock',
  summary:
    'The mock backend on a server of its own: a second origin that can show every blocked and allowed case.',
  usage: 'cors-dev-proxy mock [flags]',
  flags: {
    port: {
      type: 'string',
      value: 'PORT',
      description: 'port to listen on; 0 picks a free one',
      default: '3000',
      example: '--port 3000',
    },
    host: {
      type: 'string',
      value: 'HOST',
      description: 'address to listen on',
      default: '127.0.0.1',
      example: '--host 127.0.0.1',
    },
    cors: {
      type: 'string',
      value: 'MODE',
      description:
        'off: no CORS headers; reflect: the request origin with credentials; wildcard: Access-Control-Allow-Origin: *',
      default: 'off',
      example: '--cors reflect',
    },
    origin: {
      type: 'string',
      value: 'ORIGIN',
      description:
        'in reflect mode, always answer with this origin, as a backend set up for one front end (implies --cors reflect)',
      example: '--cors reflect --origin http://localhost:5173',
    },
    credentials: {
      type: 'boolean',
      description: 'send Access-Control-Allow-Credentials: true in every CORS mode (reflect sends it anyway)',
    },
  },
  examples: [
    'cors-dev-proxy mock --port 3000',
    'cors-dev-proxy mock --cors reflect --origin http://localhost:5173',
    'cors-dev-proxy mock --port 0 --cors wildcard --credentials',
  ],
  notes: [
    'Every request is printed as it is answered: a request the browser blocks still arrives and is answered.',
  ],
})

/** The CORS behaviour from the flags: `--origin` and `--credentials` need a mode that sends CORS headers. */
function readCors(flags: ReturnType<typeof parseFlags>): {
  cors: MockCorsMode
  origin?: string
  credentials?: boolean
} {
  const value = flags.string('cors')
  if (value !== undefined && !MODES.includes(value))
    throw invalidFlagValue(mockSpec, 'cors', value, 'off, reflect or wildcard')
  const origin = flags.string('origin')
  if (origin !== undefined && parseOrigin(origin) === null) {
    throw invalidFlagValue(mockSpec, 'origin', origin, 'an origin, scheme://host[:port] without a path')
  }
  const credentials = flags.boolean('credentials') || undefined
  const cors = (value ?? (origin !== undefined ? 'reflect' : 'off')) as MockCorsMode
  if (origin !== undefined && cors !== 'reflect') {
    throw new UsageError(
      `--origin answers with a fixed origin in reflect mode; it cannot go with --cors ${cors}`,
      'cors-dev-proxy mock --cors reflect --origin http://localhost:5173',
    )
  }
  if (credentials && cors === 'off') {
    throw new UsageError(
      '--credentials needs a CORS mode that sends CORS headers: --cors reflect or --cors wildcard',
      'cors-dev-proxy mock --cors wildcard --credentials',
    )
  }
  return { cors, ...(origin === undefined ? {} : { origin }), ...(credentials ? { credentials } : {}) }
}

function describeMode(options: { cors: MockCorsMode; origin?: string; credentials?: boolean }): string {
  const parts: string[] = [options.cors]
  if (options.origin !== undefined) parts.push(`origin ${options.origin}`)
  if (options.credentials) parts.push('credentials')
  return parts.join(', ')
}

/** What `mock` prints once it listens: URL, CORS mode, paths and switches. */
function banner(url: string, host: string, port: number, mode: string): string {
  const lines = [
    '',
    `  ${pc.bold(pc.cyan('cors-dev-proxy'))} ${pc.cyan(`v${VERSION}`)}  ${pc.dim(`mock backend, CORS ${mode}`)}`,
    '',
  ]
  lines.push(formatServerUrls(serverUrls(url.startsWith('https') ? 'https' : 'http', host, port)), '')
  lines.push('  Paths:')
  for (const [path, effect] of MOCK_PATHS) lines.push(`    ${path.padEnd(30)} ${effect}`)
  lines.push('', '  Switches (query string, per request), e.g. /users?cors=reflect&status=404:')
  for (const [name, values, effect] of MOCK_SWITCHES)
    lines.push(`    ${`${name}=${values}`.padEnd(30)} ${effect}`)
  return `${lines.join('\n')}\n`
}

/**
 * Runs the mock backend until SIGINT or SIGTERM (or `stop` settles), printing each request once
 * answered; returns 0.
 *
 * @example
 * process.exitCode = await runMock({ argv: ['--cors', 'reflect'], cwd: process.cwd(), io: processIo })
 */
export async function runMock({ argv, io, stop }: CommandContext): Promise<number> {
  const flags = parseFlags(mockSpec, argv)
  if (flags.help) {
    io.out(formatHelp(mockSpec))
    return 0
  }
  const port = readPort(mockSpec, 'port', flags.string('port') ?? '3000')
  const host = flags.string('host') ?? '127.0.0.1'
  const cors = readCors(flags)
  const stopping = stop ?? stopRequested()
  const mock = await startMockBackend({ port, host, ...cors }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE'
      ? new Error(`${host}:${port} is already in use: choose another --port, or --port 0 for a free one`)
      : error
  })
  mock.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => {
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
      const origin = req.headers.origin === undefined ? '' : pc.dim(` from ${req.headers.origin}`)
      io.out(
        `${pc.cyan('[mock]')} ${req.method} ${req.url}${preflight ? pc.dim(' (preflight)') : ''} → ${res.statusCode}${origin}`,
      )
    })
  })
  const address = mock.server.address()
  const listening = typeof address === 'object' && address !== null ? address.port : port
  io.out(banner(mock.url, host, listening, describeMode(cors)))
  const signal = await stopping
  io.out(`${pc.cyan('[mock]')} ${signal}: stopping`)
  await mock.close()
  return 0
}
