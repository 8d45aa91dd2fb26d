// Child processes of the benchmark: servers that announce their URL on stdout, and tools (wrk,
// h2load, the clients) run for a fixed time and stopped with SIGINT.
import { spawn } from 'node:child_process'

/**
 * A running server process.
 * @typedef {object} RunningServer
 * @property {string} url its base URL
 * @property {number} pid the process that serves (whose memory the 1 GiB transfers watch)
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns `command ...args` and resolves once a line of its stdout matches `ready` (the URL is the
 * first group), or rejects with what it printed when it exits or takes longer than `timeoutMs`.
 * @param {{ name: string, command: string, args: string[], ready: RegExp, env?: Record<string, string>, timeoutMs?: number }} spec
 * @returns {Promise<RunningServer>}
 */
export function startServer({ name, command, args, ready, env = {}, timeoutMs = 60_000 }) {
  // stdin is a pipe that ends when this process does, however it ends: our own servers
  // (upstream.mjs, contender.mjs) exit then, so a killed run leaves none of them behind.
  const child = spawn(command, args, {
    env: { ...process.env, NO_COLOR: '1', BENCH_EXIT_WITH_STDIN: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  let isReady = false
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`${name} did not get ready in ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const collect = (chunk) => {
      if (isReady) return
      output += chunk
      const match = ready.exec(output)
      if (!match?.[1]) return
      isReady = true
      clearTimeout(timer)
      resolve({ url: match[1], pid: child.pid, stop })
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', (chunk) => {
      // What a contender says on stderr once it runs (an error it logs) belongs in the output.
      if (isReady) process.stderr.write(`[${name}] ${chunk}`)
      else collect(chunk)
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (!isReady) reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`))
    })
  })
}

/**
 * Runs a tool for about `ms` milliseconds, stopping it with SIGINT (wrk and h2load print their
 * results then), and resolves with its stdout and stderr. It is given a long `-d` of its own, so
 * the measured time is ours to choose to the millisecond (wrk's `-d` takes whole seconds).
 * @param {string} command
 * @param {string[]} args
 * @param {{ ms?: number, env?: Record<string, string>, timeoutMs?: number }} options `ms` omitted: runs to its end
 * @returns {Promise<{ stdout: string, stderr: string, code: number | null }>}
 */
export function runTool(command, args, { ms, env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const stopTimer = ms === undefined ? undefined : setTimeout(() => child.kill('SIGINT'), ms)
    const killTimer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(stopTimer)
      clearTimeout(killTimer)
      resolve({ stdout, stderr, code })
    })
  })
}
