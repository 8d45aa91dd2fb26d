/** The part of webpack-dev-server (and `@rspack/dev-server`) whose verdicts are remembered. */
interface HostValidator {
  isValidHost?: (
    headers: Record<string, string | string[] | undefined>,
    header: string,
    validate?: boolean,
  ) => boolean
}

/**
 * Most different values remembered; past that the memo starts again, so that a client sending a
 * new `Host` on every request cannot grow it.
 */
const LIMIT = 256

/**
 * Makes the dev server remember the verdict of its Host and Origin check per header value.
 * webpack-dev-server runs `isValidHost` for every request (its `host-header-check` and
 * `cross-origin-header-check` middlewares, which run before the proxy), and each call parses the
 * value with `new URL` and `url.parse` again: about a tenth of the time a proxied request costs.
 * The verdict depends only on the value and on the dev server's options, fixed once it runs
 * (`allowedHosts`, `host`), so the same function decides every value once, and the checks stay
 * what they are: a value it refused is refused again, by the same code.
 *
 * @example
 * rememberHostVerdicts(devServer) // in setupMiddlewares, before the first request
 */
export function rememberHostVerdicts(devServer: unknown): void {
  const server = devServer as HostValidator
  const decide = server.isValidHost
  if (typeof decide !== 'function') return
  // One memo per mode (host validated or not) and header (`host`, `:authority`, `origin`), keyed
  // by the value as it came: no key string is built per call.
  const memos = [new Map<string, Map<string, boolean>>(), new Map<string, Map<string, boolean>>()] as const
  let size = 0
  server.isValidHost = function rememberedIsValidHost(headers, header, validate = true) {
    const value = headers[header]
    // Only single string values are remembered; anything else goes to the dev server as it is.
    if (typeof value !== 'string') return decide.call(this, headers, header, validate)
    const byHeader = memos[validate ? 1 : 0]
    let verdicts = byHeader.get(header)
    const known = verdicts?.get(value)
    if (known !== undefined) return known
    const verdict = decide.call(this, headers, header, validate)
    if (size >= LIMIT) {
      for (const memo of memos) memo.clear()
      size = 0
      verdicts = undefined
    }
    if (verdicts === undefined) {
      verdicts = new Map()
      byHeader.set(header, verdicts)
    }
    verdicts.set(value, verdict)
    size++
    return verdict
  }
}
