import type { ProxyRequest } from '../../http/proxy-types.js'
import { requestedOrigin } from '../../http/request-origin.js'
import { type MockResponse, sendJson } from './mock-http.js'

/** The status of a redirect answer when `?status=` does not choose another 3xx (RFC 9110 §15.4.3). */
const DEFAULT_REDIRECT_STATUS = 302

/**
 * Answers `?redirect=`: a 3xx (302 unless `?status=` names another 3xx) whose `Location` is the
 * value exactly as written, path-absolute or absolute, since what a proxy does to each form is
 * what this switch exists to show. An absolute URL must be on the origin the request addressed
 * (its scheme and `Host`), so the mock never sends a browser to another site; otherwise, and for
 * a `status` that is not a redirect, the answer is 400 with the fix.
 *
 * @example
 * // GET /login?redirect=/home → 302, Location: /home
 * // GET /login?redirect=http://127.0.0.1:4000/home&status=307 → 307, Location: http://127.0.0.1:4000/home
 */
export function answerRedirect(
  req: ProxyRequest,
  res: MockResponse,
  location: string,
  status: number | undefined,
): void {
  if (status !== undefined && (status < 300 || status > 399)) {
    sendJson(res, 400, {
      error: `redirect needs a 3xx status, got ${status}`,
      example: '/login?redirect=/home&status=303',
    })
    return
  }
  if (!location.startsWith('/') && new URL(location).origin !== requestedOrigin(req)) {
    sendJson(res, 400, {
      error: 'redirect takes a path or a URL on this server, never another origin',
      example: '/login?redirect=/home',
    })
    return
  }
  res.setHeader('location', location)
  sendJson(res, status ?? DEFAULT_REDIRECT_STATUS, { redirect: location })
}
