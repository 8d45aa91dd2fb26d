import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { caddyConfigForFront } from './caddy-front-config.js'
import { type FrontLog, foldCaddyLog } from './caddy-log.js'

export type { FrontLog } from './caddy-log.js'

/** What {@link startCaddyFront} needs. */
export interface CaddyFrontOptions {
  /** The `caddy` executable (found on PATH by the caller). */
  readonly caddy: string
  /** The public port (TCP and UDP). */
  readonly port: number
  /** The bind address (`serve --host`). */
  readonly host: string
  /** Our HTTPS server on 127.0.0.1. */
  readonly innerPort: number
  /** The certificate's PEM files. */
  readonly certFile: string
  readonly keyFile: string
  /** Our cache folder: Caddy's configuration, storage and autosaved config go in `<cacheDir>/caddy`. */
  readonly cacheDir: string
  readonly log: FrontLog
  /** The secret Caddy proves itself with to our server (see front-request.ts). */
  readonly token: string
  /** Whether to listen on ::1 too, for a loopback host. */
  readonly ipv6Loopback: boolean
  /** Milliseconds to wait for Caddy to serve. @default 15000 */
  readonly startTimeoutMs?: number
  /**
   * Aborted when the user stops `serve` (Ctrl-C) while Caddy is still starting: Caddy is stopped
   * at once and the start rejects with the signal's reason, instead of waiting for it to serve.
   */
  readonly signal?: AbortSignal
}

/** A running Caddy front. */
export interface RunningCaddyFront {
  /** Caddy's pid. */
  readonly pid: number | undefined
  /** Resolves with a reason when Caddy exits without being asked to. */
  readonly exited: Promise<string>
  /** Stops Caddy (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>
}

/** Why a start failed, in words that say what to do. */
function startError(output: string, port: number): Error {
  if (/address already in use/.test(output)) {
    const error = new Error(
      `port ${port} is taken for TCP or UDP (HTTP/3 needs both): choose another --port, or --port 0`,
    ) as NodeJS.ErrnoException
    error.code = 'EADDRINUSE'
    return error
  }
  return new Error(`Caddy did not start:\n${output.trim()}`)
}

/**
 * A watchdog for Caddy when this process is killed outright (SIGKILL, an OOM kill), which runs
 * no `exit` handler: Caddy has its own process group and would keep the ports. A shell holds
 * the read end of a pipe from us; when we die the pipe closes, its `read` returns, and it kills
 * Caddy. Its own process group too, so a Ctrl-C does not end it before we stop Caddy ourselves.
 * `undefined` where there is no POSIX shell.
 */
function guardAgainstOrphan(child: ChildProcess): ChildProcess | undefined {
  if (process.platform === 'win32' || child.pid === undefined) return undefined
  const guard = spawn('/bin/sh', ['-c', 'read _; kill -KILL "$0" 2>/dev/null', String(child.pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  })
  guard.on('error', () => undefined)
  // Neither the watchdog nor its pipe keeps our event loop alive.
  guard.unref()
  ;(guard.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.()
  return guard
}

/**
 * Starts Caddy as the HTTP/3 front of `serve --http3` and waits until it serves. Caddy's JSON log
 * is folded into ours, one line each: errors and warnings as ours, the rest at debug level. Caddy
 * is a child of this process: stopped by `stop()`, killed if this process exits without stopping
 * it, and watched (`exited` says when it ends on its own).
 *
 * @example
 * const front = await startCaddyFront({ caddy: '/usr/bin/caddy', port: 8443, host: '127.0.0.1', innerPort, certFile, keyFile, cacheDir, log })
 * await front.stop()
 */
export async function startCaddyFront(options: CaddyFrontOptions): Promise<RunningCaddyFront> {
  const child = await spawnCaddy(options)
  let stopping = false
  const caddyLog = foldCaddyLog(options.log)
  const guard = guardAgainstOrphan(child)
  const killOnExit = () => {
    guard?.kill('SIGKILL')
    child.kill('SIGKILL')
  }
  process.once('exit', killOnExit)
  for (const stream of [child.stdout, child.stderr]) {
    if (stream !== null) createInterface({ input: stream }).on('line', caddyLog.fold)
  }

  const ended = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit)
      // Before Caddy's pid can be given to another process.
      guard?.kill('SIGKILL')
      resolve(code ?? signal)
    })
    child.once('error', () => resolve(-1))
  })
  const exited = ended.then((code) => {
    const why =
      code === -1
        ? `could not run ${options.caddy}`
        : typeof code === 'string'
          ? `Caddy was ended by ${code}`
          : `Caddy exited with code ${code}`
    return `${why}: ${caddyLog.output().trim().split('\n').slice(-3).join(' / ')}`
  })

  const stop = async () => {
    stopping = true
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await ended
      clearTimeout(timer)
    }
  }

  const timeoutMs = options.startTimeoutMs ?? 15_000
  const outcome = await startOutcome(caddyLog.ready, ended, timeoutMs, options.signal)
  if (outcome !== 'ready') {
    await stop()
    if (outcome === 'aborted') throw options.signal?.reason
    const output = caddyLog.output()
    if (outcome === 'timeout') throw new Error(`Caddy did not serve within ${timeoutMs / 1000} s:\n${output}`)
    throw startError(output, options.port)
  }
  return {
    pid: child.pid,
    // Only an exit nobody asked for is news.
    exited: exited.then((reason) => (stopping ? new Promise<string>(() => {}) : reason)),
    stop,
  }
}

/** Writes Caddy's configuration under `<cacheDir>/caddy` and starts it (not yet serving). */
async function spawnCaddy(options: CaddyFrontOptions): Promise<ChildProcess> {
  const dir = join(options.cacheDir, 'caddy')
  const storageDir = join(dir, 'data')
  await mkdir(storageDir, { recursive: true })
  const file = join(dir, 'caddy.json')
  // Owner-only: it holds the token our server trusts.
  await writeFile(file, caddyConfigForFront({ ...options, storageDir }), { mode: 0o600 })
  // HOME and the XDG folders too: Caddy autosaves its configuration under them.
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: storageDir, XDG_CONFIG_HOME: join(dir, 'config') }
  return spawn(options.caddy, ['run', '--config', file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C in the terminal reaches us, and we stop Caddy after the
    // requests in flight, instead of Caddy dying first under the browser.
    detached: true,
  })
}

/** How the start ends: Caddy serves, exits, takes too long, or the user stops `serve` first. */
async function startOutcome(
  ready: Promise<void>,
  ended: Promise<unknown>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<'ready' | 'ended' | 'timeout' | 'aborted'> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const outcome = await Promise.race([
    ready.then(() => 'ready' as const),
    ended.then(() => 'ended' as const),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    }),
    new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted')
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
    }),
  ])
  clearTimeout(timer)
  if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
  return outcome
}
