import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nativeImport } from './native-import.mjs'
import { ANSI, printedUrl, watchOutput } from './output-watch.js'

/** The built CLI, run as a user runs it: `node packages/cli/dist/bin.js`. */
export const CLI_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))
const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/** Fails fast, with the command to run, when a source file is newer than its build (`pnpm test` builds first). */
function assertBuilt(): void {
  const stale: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts')) {
        const built = join(DIST, path.slice(SRC.length)).replace(/\.ts$/, '.js')
        if (!existsSync(built) || statSync(built).mtimeMs < statSync(path).mtimeMs)
          stale.push(path.slice(SRC.length))
      }
    }
  }
  walk(SRC)
  if (stale.length > 0) {
    throw new Error(`packages/cli/dist is older than ${stale.join(', ')}: run \`pnpm build\` first`)
  }
}
assertBuilt()

/** A finished CLI run. */
export interface CliResult {
  /** The exit code, or `null` when a signal ended it. */
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** Output with colours stripped. */
  readonly stdout: string
  readonly stderr: string
}

/** Options of a CLI run. */
export interface CliRunOptions {
  readonly cwd?: string
  /** Milliseconds before the child is killed and the run fails. @default 15000 */
  readonly timeout?: number
  readonly env?: NodeJS.ProcessEnv
}

function spawnCli(args: readonly string[], options: CliRunOptions): ChildProcess {
  return spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/**
 * Runs `cors-dev-proxy <args>` to its end and collects its output; a run that takes longer than
 * `timeout` is killed and rejects, so a hanging command fails the test instead of holding it up.
 *
 * @example
 * const { code, stderr } = await runCli(['serve', '--prot', '8080'])
 */
export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `cors-dev-proxy ${args.join(' ')} did not end within ${options.timeout ?? 15_000} ms\n${stdout}${stderr}`,
        ),
      )
    }, options.timeout ?? 15_000)
    child.once('error', reject)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout: stdout.replace(ANSI, ''), stderr: stderr.replace(ANSI, '') })
    })
  })
}

/** A CLI server (`serve`, `mock`) that printed its URL, in a child process or in this one. */
export interface RunningCliServer {
  /** The first URL it printed (`Local:`), e.g. `http://127.0.0.1:41234/`. */
  readonly url: string
  /** `url` without the trailing slash. */
  readonly origin: string
  /** Everything printed so far, stdout and stderr interleaved, colours stripped. */
  output(): string
  /** Waits (at most `timeout` ms) until the output contains `text`. */
  waitFor(text: string | RegExp, timeout?: number): Promise<void>
  /** Asks it to stop as `signal` does and waits for its end (failing after `timeout` ms). */
  stop(signal?: NodeJS.Signals, timeout?: number): Promise<CliResult>
}

/** A CLI server (`serve`, `mock`) running in a child process. */
export interface CliServer extends RunningCliServer {
  readonly child: ChildProcess
}

/**
 * Starts `cors-dev-proxy serve|mock <args>` (use `--port 0`) and resolves once it printed its
 * URL. Rejects with its output when it exits first or takes longer than `timeout`.
 *
 * @example
 * const serve = await startCliServer(['serve', '--port', '0', '--mock', '/api'])
 * afterAll(() => serve.stop())
 */
export function startCliServer(args: readonly string[], options: CliRunOptions = {}): Promise<CliServer> {
  const child = spawnCli(args, options)
  let stdout = ''
  let stderr = ''
  const watch = watchOutput(args, () =>
    child.exitCode === null && child.signalCode === null
      ? undefined
      : String(child.exitCode ?? child.signalCode),
  )
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString().replace(ANSI, '')
    watch.add(chunk.toString())
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString().replace(ANSI, '')
    watch.add(chunk.toString())
  })
  const exited = new Promise<CliResult>((resolve) =>
    child.once('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr })
      watch.ended()
    }),
  )
  return printedUrl(watch, options.timeout).then(
    ({ url, origin }) => ({
      child,
      url,
      origin,
      output: watch.output,
      waitFor: watch.waitFor,
      async stop(signal = 'SIGINT', timeout = 10_000) {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal)
        const timer = setTimeout(() => child.kill('SIGKILL'), timeout)
        const result = await exited
        clearTimeout(timer)
        if (result.signal === 'SIGKILL')
          throw new Error(`did not stop within ${timeout} ms after ${signal}:\n${watch.output()}`)
        return result
      },
    }),
    (error: unknown) => {
      child.kill('SIGKILL')
      throw error
    },
  )
}

/** The built CLI's entry module (what `dist/bin.js` runs). */
const CLI_MODULE = new URL('../../dist/cli.js', import.meta.url).href

/** A `runCli` loaded in this process, from `dist` or from the sources. */
export type InProcessCli = (
  argv: readonly string[],
  options: {
    cwd?: string
    io: { out(text: string): void; err(text: string): void }
    stop?: Promise<NodeJS.Signals>
  },
) => Promise<number>

/**
 * The built CLI's `runCli`, loaded by Node itself (once per test file, each in a process of its
 * own): it and everything it imports (a configuration file, jiti for a `.ts` one, the core's
 * `dist`) are loaded as `dist/bin.js` loads them, not through Vite's transforms.
 */
export async function builtRunCli(): Promise<InProcessCli> {
  return ((await nativeImport(CLI_MODULE)) as { runCli: InProcessCli }).runCli
}

/** The CLI's `runCli` from its sources, through Vitest like the test's own imports (which it shares). */
export async function sourceRunCli(): Promise<InProcessCli> {
  return ((await import('../../src/cli.js')) as { runCli: InProcessCli }).runCli
}

/** A line as the binary prints it (`processIo` ends each write with a newline). */
export const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`)

/** Runs an in-process `runCli` to its end, its output collected as the binary prints it, colours stripped. */
async function collectRun(run: InProcessCli, args: readonly string[], cwd?: string): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await run(args, {
    cwd,
    io: { out: (text) => (stdout += line(text)), err: (text) => (stderr += line(text)) },
  })
  return { code, signal: null, stdout: stdout.replace(ANSI, ''), stderr: stderr.replace(ANSI, '') }
}

/**
 * `cors-dev-proxy <args>` run by the built CLI's own `runCli` in this process, loaded by Node as
 * `dist/bin.js` loads it: the code the binary runs, reading a configuration file from `cwd` as
 * it does, without a Node process per run. For tables of short runs, which spent most of their
 * time starting processes; the binary itself is run by `runCli`.
 *
 * @example
 * const { code, stdout } = await runBuiltCliHere(['check', url, '--origin', origin, '--json'])
 */
export async function runBuiltCliHere(
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<CliResult> {
  return collectRun(await builtRunCli(), args, options.cwd)
}

/**
 * `cors-dev-proxy <args>` run by `runCli` from the CLI's sources, in this process: what `bin.ts`
 * runs, minus starting Node and setting the exit code from the result. For suites of short
 * commands (`check`) whose child processes were most of their time; each such suite keeps one
 * run of the binary itself (`runCli`).
 *
 * @example
 * const { code, stdout } = await runCliHere(['check', url, '--origin', origin])
 */
export async function runCliHere(
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<CliResult> {
  return collectRun(await sourceRunCli(), args, options.cwd)
}
