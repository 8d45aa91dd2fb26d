import type { LogSink } from '@cors-dev-proxy/core'

/**
 * Where a command writes: its normal output and its diagnostics. The bin passes the process's
 * streams; a test or another tool may pass its own.
 */
export interface CliIo {
  /** Results: help, URLs, the `check` report, the exported configuration. */
  out(text: string): void
  /** Mistakes and failures. */
  err(text: string): void
}

/** The process's stdout and stderr (synchronous for files and pipes on POSIX, so nothing is lost at exit). */
export const processIo: CliIo = Object.freeze({
  out: (text: string) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text: string) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
})

/**
 * The proxy's log lines written through `io`, where the console would print them: info to `out`,
 * warnings and errors to `err`. A `serve` run with its own `io` then shows its log there too.
 *
 * @example
 * startServe({ ...options, sink: ioLogSink(io) })
 */
export function ioLogSink(io: CliIo): LogSink {
  return Object.freeze({ info: io.out, warn: io.err, error: io.err })
}

/** What every command is run with. */
export interface CommandContext {
  /** The arguments after the command's name. */
  readonly argv: readonly string[]
  /** The directory a config file is looked for in, and relative paths are read from. */
  readonly cwd: string
  readonly io: CliIo
  /**
   * Settles with a signal's name to stop `serve` and `mock` as that signal stops them; without
   * it they take the process's SIGINT and SIGTERM. For running them in a process that is not
   * theirs (a test, another tool), whose signals they must leave alone.
   */
  readonly stop?: Promise<NodeJS.Signals>
}
