#!/usr/bin/env node
import { runCli } from './cli.js'

// `cors-dev-proxy nginx | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

// The servers (`serve`, `mock`) resolve once they were stopped and closed; exit then, so a
// handle nobody awaits (an idle keep-alive timer) cannot keep a stopped server's process alive.
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
    if (['serve', 'mock'].includes(process.argv[2] ?? '')) process.exit(code)
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
