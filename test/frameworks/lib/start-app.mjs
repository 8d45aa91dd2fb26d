// Starts an app as its users do (`nuxt dev`, `astro dev`, `node server.mjs`...) in its own
// process group, keeps the tail of its output for the report, and waits until it answers.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const READY_TIMEOUT_MS = 180_000
/** Lines of output shown when a check fails. */
const SHOWN_LINES = 60
/** Output kept for the checks to search (a framework's stack traces are long). */
const KEPT_CHARS = 4 * 1024 * 1024

/**
 * Spawns the app's command in its own process group, keeping the last 4 MiB of what it prints.
 * @param {{ app: import('../apps/types').FrameworkApp, cwd: string, bin: string, port: number, env: Record<string, string> }} input
 */
function spawnApp({ app, cwd, bin, port, env }) {
  const [first, ...rest] = app.command.map((part) => part.replaceAll('{port}', String(port)))
  const file = first === 'node' ? 'node' : join(bin, first)
  const child = spawn(file, rest, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  let exited
  /** Resolvers of `printed()` promises, settled by the next chunk. */
  let waiting = []
  const keep = (chunk) => {
    output += chunk.toString()
    if (output.length > KEPT_CHARS) output = output.slice(-KEPT_CHARS)
    for (const resolve of waiting) resolve()
    waiting = []
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = signal ?? code
      resolve(exited)
    }),
  )
  return {
    /** The process group's id (the child's pid). */
    group: child.pid,
    /** Everything it printed (the last 4 MiB). */
    output: () => output,
    /** Its exit code or signal; undefined while it runs. */
    exited: () => exited,
    /** Settles when it prints something next. */
    printed: () => new Promise((resolve) => waiting.push(resolve)),
    /** Settles when it exited. */
    exit,
  }
}

/**
 * @param {object} input
 * @param {import('../apps/types').FrameworkApp} input.app
 * @param {string} input.cwd the app's folder in the install
 * @param {string} input.bin the install's node_modules/.bin
 * @param {number} input.port
 * @param {Record<string, string>} input.env
 */
export async function startApp(input) {
  const { port } = input
  const { group, output, exited, exit } = spawnApp(input)
  const tail = () =>
    output()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-SHOWN_LINES)
      .join('\n')
  const origin = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (exited() !== undefined) throw new Error(`exited (${exited()}) before it answered\n${tail()}`)
    try {
      const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(10_000) })
      await res.arrayBuffer()
      if (res.status < 500) break
    } catch {}
    if (Date.now() - started > READY_TIMEOUT_MS) {
      process.kill(-group, 'SIGKILL')
      throw new Error(`did not answer on ${origin} within ${READY_TIMEOUT_MS / 1000} s\n${tail()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return {
    origin,
    /** Whether the process is still running (a crash shows here). */
    alive: () => exited() === undefined,
    /** Everything it printed (the last 4 MiB). */
    output,
    /** The last lines it printed, for a report. */
    tail,
    async stop() {
      if (exited() !== undefined) return
      process.kill(-group, 'SIGTERM')
      const timer = setTimeout(() => exited() === undefined && process.kill(-group, 'SIGKILL'), 5000)
      await exit
      clearTimeout(timer)
    },
  }
}

/** How long a start that must fail may take to say so (a cold Nuxt takes ~20 s to load its config). */
const FAILURE_TIMEOUT_MS = 120_000

/**
 * Starts the app as `startApp` does, for a start that must fail: resolves once the process
 * exited or printed what `done` looks for (looked for at each thing it prints), asking for `/`
 * at most every second meanwhile (a framework that loads its config on the first request shows
 * the error there), then stops the process group. Bounded: after 120 s it resolves with what
 * was printed.
 * @param {Parameters<typeof startApp>[0]} input
 * @param {(output: string) => boolean} done
 * @returns {Promise<{ output: string, exited: number | string | undefined }>}
 */
export async function startUntil(input, done) {
  const { port } = input
  const { group, output, exited, exit, printed } = spawnApp(input)
  const started = Date.now()
  let asked = 0
  while (exited() === undefined && !done(output()) && Date.now() - started < FAILURE_TIMEOUT_MS) {
    if (Date.now() - asked >= 1000) {
      asked = Date.now()
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) })
        await res.arrayBuffer()
      } catch {}
    }
    // Looked at again as soon as it prints (the error is usually the next line), or after 1 s.
    await Promise.race([exit, printed(), new Promise((resolve) => setTimeout(resolve, 1000))])
  }
  const exitedBefore = exited()
  // The whole group, even after the first process exited: a framework's workers may outlive it.
  try {
    process.kill(-group, 'SIGKILL')
  } catch {}
  await exit
  return { output: output(), exited: exitedBefore }
}
