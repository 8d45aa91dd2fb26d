import { builtRunCli, type CliResult, line, type RunningCliServer, sourceRunCli } from './cli-process.js'
import { ANSI, printedUrl, watchOutput } from './output-watch.js'

/**
 * `serve` publishes its URL in this process's environment (`CORS_DEV_PROXY_URL`, for
 * `serverFetch`): the value from before the first of the servers running here is put back when
 * the last one ends, so that no case leaves it behind, concurrent ones included.
 */
const SERVER_URL_VARIABLE = 'CORS_DEV_PROXY_URL'
let serversHere = 0
let serverUrlBefore: string | undefined

function serverHereStarts(): void {
  if (serversHere++ === 0) serverUrlBefore = process.env[SERVER_URL_VARIABLE]
}

function serverHereEnded(): void {
  if (--serversHere > 0) return
  if (serverUrlBefore === undefined) delete process.env[SERVER_URL_VARIABLE]
  else process.env[SERVER_URL_VARIABLE] = serverUrlBefore
}

/**
 * Starts `cors-dev-proxy serve|mock <args>` (use `--port 0`) with `runCli` in this process, from
 * the sources as `runCliHere` runs it, or with `built` from `dist` loaded by Node as
 * `runBuiltCliHere` loads it (for a configuration file imported as the binary imports it), and
 * resolves once it printed its URL;
 * `stop(signal)` stops it through `runCli`'s `stop` option, as that signal stops the binary, and
 * resolves with its exit code and output. It takes no signal of this process, and leaves no
 * server or `CORS_DEV_PROXY_URL` behind once stopped. Rejects with its output when it ends
 * first or prints no URL within `timeout`. A file's run of the binary itself is `startCliServer`.
 *
 * @example
 * const serve = await startCliServerHere(['serve', '--port', '0', '--mock', '/api'], { cwd })
 * afterAll(() => serve.stop())
 */
export async function startCliServerHere(
  args: readonly string[],
  options: { cwd?: string; timeout?: number; built?: boolean } = {},
): Promise<RunningCliServer> {
  const run = await (options.built ? builtRunCli() : sourceRunCli())
  let requestStop: (signal: NodeJS.Signals) => void = () => {}
  const stop = new Promise<NodeJS.Signals>((resolve) => (requestStop = resolve))
  let stdout = ''
  let stderr = ''
  let code: number | undefined
  const watch = watchOutput(args, () => (code === undefined ? undefined : String(code)))
  const io = {
    out: (text: string) => {
      stdout += line(text).replace(ANSI, '')
      watch.add(line(text))
    },
    err: (text: string) => {
      stderr += line(text).replace(ANSI, '')
      watch.add(line(text))
    },
  }
  serverHereStarts()
  const ended = run(args, { cwd: options.cwd, io, stop })
    .catch((error: unknown) => {
      io.err(`runCli threw: ${error instanceof Error ? error.stack : String(error)}`)
      return 1
    })
    .then((exitCode): CliResult => {
      code = exitCode
      serverHereEnded()
      watch.ended()
      return { code: exitCode, signal: null, stdout, stderr }
    })
  const stopAndWait = async (signal: NodeJS.Signals = 'SIGINT', timeout = 10_000): Promise<CliResult> => {
    requestStop(signal)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not stop within ${timeout} ms after ${signal}:\n${watch.output()}`)),
        timeout,
      )
    })
    try {
      return await Promise.race([ended, late])
    } finally {
      clearTimeout(timer)
    }
  }
  try {
    const { url, origin } = await printedUrl(watch, options.timeout)
    return { url, origin, output: watch.output, waitFor: watch.waitFor, stop: stopAndWait }
  } catch (error) {
    await stopAndWait('SIGTERM')
    throw error
  }
}
