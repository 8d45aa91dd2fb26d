import type { LogSink } from './options.js'

/** A sink writing to the console: `console.log`, `console.warn`, `console.error`. */
export const consoleLogSink: LogSink = Object.freeze({
  info(message: string) {
    console.log(message)
  },
  warn(message: string) {
    console.warn(message)
  },
  error(message: string) {
    console.error(message)
  },
})
