/**
 * Codes of {@link CorsDevProxyError}, one per kind of configuration mistake, so tools and
 * tests can tell them apart without parsing the message.
 */
export type CorsDevProxyErrorCode =
  | 'INVALID_ROUTES'
  | 'INVALID_PREFIX'
  | 'INVALID_TARGET'
  | 'UNSUPPORTED_SCHEME'
  | 'UNKNOWN_OPTION'
  | 'INVALID_OPTION'
  | 'CONFLICTING_OPTIONS'
  | 'INVALID_CORS'

/**
 * A configuration error, thrown at construction only (never while answering a request).
 * The message names the option and shows a correct example.
 *
 * @example
 * throw new CorsDevProxyError('INVALID_TARGET', "routes['/api'].target", 'is not a URL', "{ '/api': 'http://localhost:3000' }")
 */
export class CorsDevProxyError extends Error {
  /** Machine-readable kind of mistake. */
  readonly code: CorsDevProxyErrorCode
  /** Path of the offending option, e.g. `routes['/api'].pathRewrite`. */
  readonly option: string

  constructor(code: CorsDevProxyErrorCode, option: string, problem: string, example?: string) {
    super(`[cors-dev-proxy] ${option} ${problem}${example ? `\n  Fix it like this: ${example}` : ''}`)
    this.name = 'CorsDevProxyError'
    this.code = code
    this.option = option
  }
}
