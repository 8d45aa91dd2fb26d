/*
 * Caddy's JSON log, folded into ours (the HTTP/3 front of `serve --http3`, caddy-front.ts).
 */

/** Where the front's lines go: our logger's levels. */
export interface FrontLog {
  debug(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** A line of Caddy's JSON log. */
interface CaddyLine {
  level?: string
  logger?: string
  msg?: string
  [field: string]: unknown
}

/**
 * Lines Caddy 2.6 writes as warnings that only confirm what we configured (caddy-front-config.ts):
 * the admin endpoint and the port-80 redirect server we turned off, and its goodbye when we stop
 * it. No option silences them (the first comes before Caddy reads its log options).
 */
const EXPECTED = new Set([
  'admin endpoint disabled',
  'automatic HTTP->HTTPS redirects are disabled',
  'exiting; byeee!! 👋',
])

/** The line Caddy writes once every listener is up. */
const READY = 'serving initial configuration'

/** Caddy's fields after `msg`, as `key=value`, for the folded line. */
function detailsOf(line: CaddyLine): string {
  const skip = new Set(['level', 'ts', 'logger', 'msg'])
  const parts = Object.entries(line)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`
}

/** Caddy's log folded into ours, and what it said, for the errors that quote it. */
export interface CaddyLog {
  /** Folds one line of Caddy's output into our log. */
  fold(text: string): void
  /** Resolves when Caddy says it serves. */
  readonly ready: Promise<void>
  /** Everything Caddy said so far, one line each. */
  output(): string
}

/**
 * Folds Caddy's JSON log into ours, one line each: errors and warnings as ours, the rest at debug
 * level, the lines that confirm our configuration dropped; a line that is not JSON is a warning.
 *
 * @example
 * const caddyLog = foldCaddyLog(log)
 * createInterface({ input: child.stderr }).on('line', caddyLog.fold)
 */
export function foldCaddyLog(log: FrontLog): CaddyLog {
  let output = ''
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => {
    markReady = resolve
  })
  const fold = (text: string) => {
    let line: CaddyLine
    try {
      line = JSON.parse(text) as CaddyLine
    } catch {
      output += `${text}\n`
      if (text.trim() !== '') log.warn(`caddy: ${text}`)
      return
    }
    const message = line.msg ?? ''
    output += `${message}${detailsOf(line)}\n`
    if (message === READY) markReady()
    if (EXPECTED.has(message)) return
    const folded = `caddy: ${message}${detailsOf(line)}`
    if (line.level === 'error' || line.level === 'fatal' || line.level === 'panic') log.error(folded)
    else if (line.level === 'warn') log.warn(folded)
    else log.debug(folded)
  }
  return { fold, ready, output: () => output }
}
