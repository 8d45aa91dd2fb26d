import { CorsDevProxyError, type CorsDevProxyErrorCode } from '../../packages/core/src/config/errors.js'

/** What a configuration error is expected to say. */
export interface ExpectedConfigError {
  code: CorsDevProxyErrorCode
  /** The exact option path, e.g. `routes['/api'].target`. */
  option: string
  /** Substrings the message must contain (the problem, the example fix). */
  contains?: string[]
}

/**
 * Runs `build`, which must throw a `CorsDevProxyError`, and returns it; throws a descriptive
 * error (failing the test) when nothing or something else is thrown.
 */
export function catchConfigError(build: () => unknown): CorsDevProxyError {
  try {
    build()
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw new Error(`expected a CorsDevProxyError, got ${String(error)}`)
  }
  throw new Error('expected a CorsDevProxyError, nothing was thrown')
}

/**
 * Asserts that `build` throws a `CorsDevProxyError` with the code, the option path, the
 * option named in the message, an example fix, and every expected substring. Returns the
 * message for further checks.
 */
export function expectConfigError(build: () => unknown, expected: ExpectedConfigError): string {
  const error = catchConfigError(build)
  const problems: string[] = []
  if (error.code !== expected.code) problems.push(`code ${error.code} instead of ${expected.code}`)
  if (error.option !== expected.option) problems.push(`option ${error.option} instead of ${expected.option}`)
  if (!error.message.includes(expected.option)) problems.push('the message does not name the option')
  if (!error.message.includes('Fix it like this: ')) problems.push('the message has no example fix')
  for (const text of expected.contains ?? []) {
    if (!error.message.includes(text)) problems.push(`the message lacks ${JSON.stringify(text)}`)
  }
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\nmessage: ${error.message}`)
  return error.message
}
