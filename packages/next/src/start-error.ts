import { CorsDevProxyError } from '@cors-dev-proxy/core'

/**
 * Makes a configuration error that nobody handles end the process as Node would (exit code 1),
 * with our message alone on stderr. The docs' `server.mjs` awaits `createNextServer` at its top
 * level: a rejection there is an uncaught exception, for which Node prints the source line of
 * our `throw`, the message, a stack into our files and Node's version; the message already
 * names the option and shows the fix. A caller that catches the rejection sees it as before:
 * the listener only acts on this error, and is gone after this turn of the event loop (a
 * rejection nobody handles reaches Node within it, through the microtasks).
 */
function printAloneIfUnhandled(error: CorsDevProxyError): void {
  const onUncaught = (thrown: unknown): void => {
    process.removeListener('uncaughtException', onUncaught)
    if (thrown === error) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    // Another error in the same turn: what Node would have done without this listener.
    if (process.listenerCount('uncaughtException') === 0) throw thrown
  }
  process.on('uncaughtException', onUncaught)
  setImmediate(() => process.removeListener('uncaughtException', onUncaught)).unref()
}

/**
 * Runs a start-up check; a `CorsDevProxyError` it throws is rethrown, printed alone and ending the
 * process with exit code 1 if nobody handles it (see `printAloneIfUnhandled`).
 *
 * @example
 * const resolved = checkAtStart(() => resolveOptions(routes, options))
 */
export function checkAtStart<T>(check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (error instanceof CorsDevProxyError) printAloneIfUnhandled(error)
    throw error
  }
}
