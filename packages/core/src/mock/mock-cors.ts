import type { ProxyRequest } from '../options.js'
import { headerValue, type MockResponse, sendJson } from './mock-http.js'
import type { MockCorsMode } from './mock-options.js'
import type { MockSwitches } from './mock-switches.js'

/** Methods a preflight answer lists unless `?allowMethods=` says otherwise (the `cors` package's default). */
const DEFAULT_ALLOW_METHODS = 'GET, HEAD, PUT, PATCH, POST, DELETE'

/**
 * A CORS preflight is an OPTIONS request with `Origin` and `Access-Control-Request-Method`
 * (Fetch standard §4.8, "CORS-preflight fetch"). Any other OPTIONS is an ordinary request
 * and is echoed: treating every OPTIONS as a preflight is the `cors` package's mistake.
 */
export function isPreflightRequest(req: ProxyRequest): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  )
}

/** Adds a field name to `Vary` without repeating it (RFC 9110 §12.5.5). */
function addVary(res: MockResponse, name: string): void {
  const current = res.getHeader('vary')
  const names = current === undefined ? [] : String(current).split(/\s*,\s*/)
  if (names.some((n) => n.toLowerCase() === name.toLowerCase())) return
  res.setHeader('vary', [...names.filter((n) => n !== ''), name].join(', '))
}

/**
 * Sets the CORS headers every response of the mode carries (Fetch standard §3.2.3, "HTTP
 * responses"): the preflight answer and the actual response alike, since the browser checks
 * `Access-Control-Allow-Origin` on both.
 *
 * - `off`: none, so the browser blocks every cross-origin read.
 * - `wildcard`: `Access-Control-Allow-Origin: *`; credentials only when `?credentials=true`,
 *   which the browser then refuses (`*` is never valid with credentials).
 * - `reflect`: the request's Origin, `Access-Control-Allow-Credentials: true` (unless
 *   `?credentials=false`) and `Vary: Origin`, because the answer depends on the Origin.
 */
export function applyMockCorsHeaders(
  req: ProxyRequest,
  res: MockResponse,
  mode: MockCorsMode,
  switches: MockSwitches | undefined,
): void {
  if (mode === 'off' || res.headersSent) return
  const origin = req.headers.origin
  if (mode === 'wildcard') {
    res.setHeader('access-control-allow-origin', '*')
    if (switches?.credentials === true) res.setHeader('access-control-allow-credentials', 'true')
  } else {
    addVary(res, 'Origin')
    if (origin !== undefined) res.setHeader('access-control-allow-origin', origin)
    if (switches?.credentials !== false) res.setHeader('access-control-allow-credentials', 'true')
  }
  if (switches?.expose) res.setHeader('access-control-expose-headers', switches.expose)
}

/**
 * Answers a preflight: 204 with the mode's headers, the allowed methods and headers and
 * `Access-Control-Max-Age`; or 500 when `?preflight=fail`, which the browser rejects whatever
 * the headers say (Fetch standard §4.8 step 7: the status must be an ok status).
 */
export function answerMockPreflight(
  req: ProxyRequest,
  res: MockResponse,
  mode: MockCorsMode,
  switches: MockSwitches,
): void {
  applyMockCorsHeaders(req, res, mode, switches)
  if (mode !== 'off') {
    const methods = switches.allowMethods ?? DEFAULT_ALLOW_METHODS
    if (methods !== '') res.setHeader('access-control-allow-methods', methods)
    let headers = switches.allowHeaders
    if (headers === undefined) {
      // Reflecting the requested headers makes the answer depend on them: say so for caches.
      addVary(res, 'Access-Control-Request-Headers')
      headers = headerValue(req, 'access-control-request-headers') ?? ''
    }
    if (headers !== '') res.setHeader('access-control-allow-headers', headers)
    if (switches.maxAge !== undefined) res.setHeader('access-control-max-age', String(switches.maxAge))
  }
  if (switches.preflightFail) {
    sendJson(res, 500, { error: 'preflight failed on purpose (?preflight=fail)' })
    return
  }
  res.statusCode = 204
  res.end()
}
