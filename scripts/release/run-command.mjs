import { spawn } from 'node:child_process'

/**
 * The end of a child process: its exit code (null when a signal ended it) and what it wrote.
 * @typedef {object} CommandResult
 * @property {number | null} code
 * @property {string} output stdout and stderr interleaved as they came
 * @property {string} stdout stdout alone, for a program that answers in JSON there
 */

/**
 * Runs a program to its end without a shell and resolves with its exit code and output; it never
 * rejects for a non-zero exit, since the release checks report every failure rather than the
 * first.
 * @param {string} file
 * @param {readonly string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, echo?: boolean }} [options] `echo` also
 *   passes the output on to this process's stdout and stderr as it comes (a long install's progress)
 * @returns {Promise<CommandResult>}
 * @example
 * const { code, output } = await runCommand('pnpm', ['-v'])
 */
export function runCommand(file, args, { echo = false, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let stdout = ''
    const keep = (to) => (chunk) => {
      output += chunk
      if (to === process.stdout) stdout += chunk
      if (echo) to.write(chunk)
    }
    child.stdout.on('data', keep(process.stdout))
    child.stderr.on('data', keep(process.stderr))
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}\n`, stdout }))
    child.on('close', (code) => resolve({ code, output, stdout }))
  })
}
