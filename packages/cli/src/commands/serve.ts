import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import pc from 'picocolors'
import type { CommandSpec } from '../args/command-spec.js'
import { CONFIG_FLAG, CORS_FLAGS, LOG_FLAG, ROUTE_FLAG, readConfigFlags } from '../args/config-flags.js'
import { readPort } from '../args/flag-values.js'
import { formatHelp } from '../args/format-help.js'
import { parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { applyFlags } from '../config/apply-flags.js'
import { loadConfig } from '../config/load-config.js'
import { resolveConfig } from '../config/resolve-config.js'
import { type CommandContext, ioLogSink } from '../io.js'
import { findProgram } from '../serve/find-program.js'
import { startServe } from '../serve/start-serve.js'
import { stopRequested } from '../serve/stop-requested.js'
import { serveBanner, webSocketRoutes } from './serve-banner.js'

/** How long requests in flight may take to finish once a stop is asked for. */
const GRACE_MS = 3000

/** `cors-dev-proxy serve`: its flags, for the parser and `--help`. */
export const serveSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'serve',
  summary:
    'A standalone dev proxy for stacks without Vite or webpack: routes, static files with an SPA fallback, HTTPS with HTTP/2.',
  usage: 'cors-dev-proxy serve [flags]',
  flags: {
    port: {
      type: 'string',
      value: 'PORT',
      description: 'port to listen on; 0 picks a free one',
      default: '8080',
      example: '--port 8080',
    },
    host: {
      type: 'string',
      value: 'HOST',
      description: 'address to listen on; 0.0.0.0 exposes it to the network',
      default: '127.0.0.1',
      example: '--host 127.0.0.1',
    },
    ...ROUTE_FLAG,
    mock: {
      type: 'string',
      multiple: true,
      value: 'PREFIX',
      description: 'answer a path prefix from the built-in mock backend (WebSocket echo at PREFIX/ws)',
      example: '--mock /mock',
    },
    static: {
      type: 'string',
      value: 'DIR',
      description: 'serve the files of DIR; navigations to paths without a file get DIR/index.html',
      example: '--static ./dist',
    },
    https: {
      type: 'boolean',
      description:
        'HTTP/2 over TLS (HTTP/1.1 accepted) with a self-signed certificate made and cached locally',
    },
    http3: {
      type: 'boolean',
      description:
        'HTTP/3 too (implies --https): Caddy, found on PATH, answers QUIC and TLS on --port (TCP and UDP), announces Alt-Svc: h3 and forwards to this server; without Caddy, HTTP/2 only',
    },
    ...CORS_FLAGS,
    'allowed-host': {
      type: 'string',
      multiple: true,
      value: 'NAME',
      description: 'also accept this Host (.example.test accepts its subdomains too)',
      example: '--allowed-host dev.example.test',
    },
    ...CONFIG_FLAG,
    ...LOG_FLAG,
  },
  examples: [
    'cors-dev-proxy serve --route /api=http://127.0.0.1:3000 --static ./dist',
    'cors-dev-proxy serve --port 0 --mock /api --cors',
    'cors-dev-proxy serve --https --route /api=http://127.0.0.1:3000',
    'cors-dev-proxy serve --http3 --port 8443 --mock /api',
  ],
  notes: [
    'WebSocket routes: a ws:// or wss:// target (--route /live=ws://127.0.0.1:3000) or `ws: true` in the configuration file forwards WebSocket upgrades on the prefix; the banner lists them, with the URL to open. A --mock route echoes WebSockets at PREFIX/ws.',
    "HTTP/3 (--http3): Caddy 2.6 or later on PATH (Debian/Ubuntu: apt-get install caddy; macOS: brew install caddy) runs as a child of this process with its admin endpoint off and its storage in the certificate's cache folder, and stops with it; its log lines appear in ours. Browsers use HTTP/3 only for certificates from a public root, so the banner prints the Chromium command line that accepts this one (its key's SHA-256) over QUIC; other browsers stay on HTTP/2.",
    'Requests whose Host is not loopback, the bind address or an --allowed-host are answered 403 (DNS-rebinding protection), WebSocket upgrades too. Routes answer before static files. Flags override the configuration file. Ctrl-C stops after the requests in flight (at most 3 s).',
  ],
})

/** The `--static` folder, absolute; it must exist. */
function readStaticDir(cwd: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const dir = resolve(cwd, value)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `--static ${value}: no such folder (looked for ${dir})`,
      'cors-dev-proxy serve --static ./dist',
    )
  }
  return dir
}

/** Caddy's path for `--http3`, or `undefined` with a word on how to install it (serve carries on over HTTP/2). */
function caddyOrWarn(io: CommandContext['io']): string | undefined {
  const caddy = findProgram('caddy')
  if (caddy === undefined) {
    io.err(
      `${pc.yellow('[cors-dev-proxy]')} --http3 needs Caddy on PATH (it answers QUIC; Node has no QUIC server): install it (Debian/Ubuntu: sudo apt-get install caddy; macOS: brew install caddy; else https://caddyserver.com/download) and run again. Carrying on over HTTP/2 (--https).`,
    )
  }
  return caddy
}

/** What the stop line adds about requests still in flight. */
function waitingNote(inFlight: number): string {
  return inFlight === 0
    ? ''
    : `, waiting for ${inFlight} request${inFlight === 1 ? '' : 's'} in flight (at most ${GRACE_MS / 1000} s)`
}

/**
 * Waits for a stop signal, or for the HTTP/3 front to end: Caddy holds the public port, so if it
 * ends on its own, the URL is dead, and so is this run.
 */
function stopOrFrontGone(
  stopping: Promise<NodeJS.Signals>,
  serve: Awaited<ReturnType<typeof startServe>>,
): Promise<{ signal: NodeJS.Signals } | { reason: string }> {
  const frontGone = serve.front?.exited.then((reason) => reason) ?? new Promise<string>(() => {})
  return Promise.race([stopping.then((signal) => ({ signal })), frontGone.then((reason) => ({ reason }))])
}

/**
 * Runs `serve` until SIGINT or SIGTERM (or `stop` settles), then stops cleanly (no new
 * connections, idle ones closed, requests in flight given 3 s, the proxy closed) and returns 0.
 * Its log lines go to `io`, as its banner does.
 *
 * @example
 * process.exitCode = await runServe({ argv: ['--port', '0'], cwd: process.cwd(), io: processIo })
 */
export async function runServe({ argv, cwd, io, stop }: CommandContext): Promise<number> {
  const flags = parseFlags(serveSpec, argv)
  if (flags.help) {
    io.out(formatHelp(serveSpec))
    return 0
  }
  const port = readPort(serveSpec, 'port', flags.string('port') ?? '8080')
  const host = flags.string('host') ?? '127.0.0.1'
  const staticDir = readStaticDir(cwd, flags.string('static'))
  const loaded = await loadConfig(cwd, flags.string('config'))
  const configFlags = readConfigFlags(serveSpec, flags)
  const config = applyFlags(loaded.config, configFlags)
  const hasRoutes = Object.keys(config.routes).length > 0
  if (!hasRoutes && staticDir === undefined) {
    throw new UsageError(
      'nothing to serve: give a --route, a --mock or --static, or write a cors-dev-proxy.config.* file',
      serveSpec.examples[0],
    )
  }
  // Resolved before anything listens: a mistake is reported and nothing is started.
  const resolved = hasRoutes ? resolveConfig(config, configFlags) : undefined
  const wantsHttp3 = flags.boolean('http3')
  const caddy = wantsHttp3 ? caddyOrWarn(io) : undefined
  const https = flags.boolean('https') || wantsHttp3
  const stopping = stop ?? stopRequested()
  // A Ctrl-C before serve is up (the certificate being made, Caddy starting) stops at once.
  const startUp = new AbortController()
  void stopping.then((signal) => startUp.abort(signal))
  const starting = startServe({
    signal: startUp.signal,
    resolved,
    port,
    host,
    staticDir,
    https,
    http3: caddy === undefined ? undefined : { caddy },
    allowedHosts: flags.strings('allowed-host'),
    cwd,
    sink: ioLogSink(io),
    onListening: ({ urls, certificate, port }) =>
      io.out(
        serveBanner({
          cwd,
          https,
          urls,
          configPath: loaded.path,
          staticDir,
          certificate,
          http3Port: caddy === undefined ? undefined : port,
          webSockets: webSocketRoutes(resolved),
        }),
      ),
  })
  const serve = await starting.catch((error: unknown) => {
    if (!startUp.signal.aborted) throw error
    return startUp.signal.reason as NodeJS.Signals
  })
  if (typeof serve === 'string') {
    io.out(`${pc.cyan('[cors-dev-proxy]')} ${serve}: stopped while starting`)
    return 0
  }
  const ended = await stopOrFrontGone(stopping, serve)
  if ('reason' in ended) {
    const message = `the HTTP/3 front stopped (${ended.reason}): stopping`
    if (serve.proxy !== undefined) serve.proxy.logger.error(message)
    else io.err(`${pc.red('[cors-dev-proxy]')} ${message}`)
    await serve.close(0)
    return 1
  }
  const { signal } = ended
  const waiting = waitingNote(serve.connections.inFlight)
  // Through the proxy's logger when there is one, so `--log silent` silences this too.
  if (serve.proxy !== undefined) serve.proxy.logger.info(`${signal}: stopping${waiting}`)
  else io.out(`${pc.cyan('[cors-dev-proxy]')} ${signal}: stopping${waiting}`)
  await serve.close(GRACE_MS)
  return 0
}
