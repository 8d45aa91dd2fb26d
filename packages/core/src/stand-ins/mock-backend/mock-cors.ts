import { CORS_DEFAULTS } from '../../config/defaults.js'
import { appendVary } from '../../cors/cors-decision.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { headerValue, type MockResponse, sendJson } from './mock-http.js'
import type { MockSwitches } from './mock-switches.js'
import type { MockCorsMode } from './options/echo-backend-options.js'
import type { ResolvedMockBackendOptions } from './options/resolve-echo-backend-options.js'

/**
 * Sets the CORS headers every response of the mode carries (Fetch standard §3.2.3, "HTTP
 * responses"): the preflight answer and the actual response alike, since the browser checks
 * `Access-Control-Allow-Origin` on both.
 *
 * - `off`: none, so the browser blocks every cross-origin read.
 * - `wildcard`: `Access-Control-Allow-Origin: *`; credentials only when `?credentials=true`,
 *   which the browser then refuses (`*` is never valid with credentials).
 * - `reflect`: the request's Origin (or the backend's fixed `origin`),
 *   `Access-Control-Allow-Credentials: true` (unless `?credentials=false`) and `Vary: Origin`,
 *   because the answer depends on the Origin.
 *
 * The backend's `credentials` option is the default of the `?credentials=` switch.
 */
export function applyMockCorsHeaders(
  req: ProxyRequest,
  res: MockResponse,
  mode: MockCorsMode,
  switches: MockSwitches | undefined,
  backend: Pick<ResolvedMockBackendOptions, 'origin' | 'credentials'>,
): void {
  if (mode === 'off' || res.headersSent) return
  const origin = req.headers.origin
  const credentials = switches?.credentials ?? backend.credentials
  if (mode === 'wildcard') {
    res.setHeader('access-control-allow-origin', '*')
    if (credentials === true) res.setHeader('access-control-allow-credentials', 'true')
  } else {
    appendVary(res, ['Origin'])
    const allowed = backend.origin ?? origin
    if (allowed !== undefined) res.setHeader('access-control-allow-origin', allowed)
    if (credentials !== false) res.setHeader('access-control-allow-credentials', 'true')
  }
  if (switches?.allowOrigin !== undefined) res.setHeader('access-control-allow-origin', switches.allowOrigin)
  if (switches?.allowCredentials !== undefined) {
    res.setHeader('access-control-allow-credentials', switches.allowCredentials)
  }
  if (switches?.expose) res.setHeader('access-control-expose-headers', switches.expose)
}

/**
 * Sets the `?header=Name:value` lines, last, so they can replace anything the mode set (a
 * second Access-Control-Allow-Origin line, an unparsable Access-Control-Allow-Methods, a
 * `Location` on a 3xx preflight). The lines of one name go out as that many header lines.
 * Applied with `cors=off` too: they are the script's test headers, not the mode's.
 */
export function applyMockExtraHeaders(res: MockResponse, switches: MockSwitches | undefined): void {
  if (switches === undefined || switches.headers.length === 0 || res.headersSent) return
  const lines = new Map<string, string[]>()
  for (const [name, value] of switches.headers) {
    const lower = name.toLowerCase()
    lines.set(lower, [...(lines.get(lower) ?? []), value])
  }
  for (const [name, values] of lines) res.setHeader(name, values.length === 1 ? (values[0] ?? '') : values)
}

/**
 * Answers a preflight: 204 with the mode's headers, the allowed methods and headers,
 * `Access-Control-Max-Age` and the `?header=` lines; or the `?preflightStatus=` (500 when
 * `?preflight=fail`), which the browser rejects unless it is an ok status, 200-299, whatever the
 * headers say (Fetch standard §4.8 step 7).
 */
export function answerMockPreflight(
  req: ProxyRequest,
  res: MockResponse,
  mode: MockCorsMode,
  switches: MockSwitches,
  backend: Pick<ResolvedMockBackendOptions, 'origin' | 'credentials'>,
): void {
  applyMockCorsHeaders(req, res, mode, switches, backend)
  if (mode !== 'off') {
    const methods = switches.allowMethods ?? CORS_DEFAULTS.methods
    if (methods !== '') res.setHeader('access-control-allow-methods', methods)
    let headers = switches.allowHeaders
    if (headers === undefined) {
      // Reflecting the requested headers makes the answer depend on them: say so for caches.
      appendVary(res, ['Access-Control-Request-Headers'])
      headers = headerValue(req, 'access-control-request-headers') ?? ''
    }
    if (headers !== '') res.setHeader('access-control-allow-headers', headers)
    if (switches.maxAge !== undefined) res.setHeader('access-control-max-age', String(switches.maxAge))
  }
  applyMockExtraHeaders(res, switches)
  const status = switches.preflightStatus ?? (switches.preflightFail ? 500 : 204)
  if (status === 204) {
    res.statusCode = 204
    res.end()
    return
  }
  sendJson(res, status, {
    error: `preflight answered ${status} on purpose (?preflightStatus= or ?preflight=fail)`,
  })
}
