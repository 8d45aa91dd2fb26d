/**
 * A configuration file that cannot be used: not found, not loadable, or not exporting an object.
 * Printed like the core's `CorsDevProxyError` (the problem, then "Fix it like this"), exit 2.
 *
 * @example
 * throw new ConfigFileError('cors-dev-proxy.config.mjs must export an object', "export default { routes: { '/api': 'http://localhost:3000' } }")
 */
export class ConfigFileError extends Error {
  /** A working alternative, shown under the problem. */
  readonly fix: string | undefined

  constructor(problem: string, fix?: string) {
    super(`[cors-dev-proxy] ${problem}${fix ? `\n  Fix it like this: ${fix}` : ''}`)
    this.name = 'ConfigFileError'
    this.fix = fix
  }
}
