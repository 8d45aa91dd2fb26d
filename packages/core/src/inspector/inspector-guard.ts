import type { ProxyRequest } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'

/** Where everything of the overlay and the inspector is served, whatever the dev server's `base`. */
export const INSPECTOR_BASE = '/__cors-dev-proxy'

/**
 * The header every answer of the inspector's API carries, so a client outside the browser
 * (`cors-dev-proxy mcp`) tells cors-dev-proxy's own 404 (`no exchange #12`) from another
 * server's at the same URL (a backend's `{"error":"no such path"}`), which means a wrong `--url`.
 */
export const INSPECTOR_ANSWER_HEADER = 'x-cors-dev-proxy-inspector'

/** Whether a request target is ours (`/__cors-dev-proxy`, `/__cors-dev-proxy/…`, with or without a query). */
export function isInspectorPath(url: string | undefined): boolean {
  if (url === undefined || !url.startsWith(INSPECTOR_BASE)) return false
  const next = url.charCodeAt(INSPECTOR_BASE.length)
  // end, '/', '?'
  return Number.isNaN(next) || next === 47 || next === 63
}

/**
 * A top-level navigation to the inspector's page itself (a link from another local app, which
 * the browser sends as `same-site` or `cross-site`): the page holds no data, and what it lists it
 * asks for from the dev server's own origin, each request checked here. Never a frame.
 */
function isPageNavigation(req: ProxyRequest): boolean {
  if (req.method !== 'GET') return false
  const { 'sec-fetch-mode': mode, 'sec-fetch-dest': dest } = req.headers
  if (mode !== 'navigate' || dest !== 'document') return false
  const url = req.url ?? ''
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  return path === INSPECTOR_BASE || path === `${INSPECTOR_BASE}/`
}

/**
 * Why a request to `/__cors-dev-proxy/` is refused, or `undefined` when it may be answered.
 * The dev server's Host check ran before (a DNS-rebinding page never gets here); on top of it,
 * only the dev server's own pages may use these endpoints: an `Origin` must be the dev server's
 * own, `Sec-Fetch-Site` must be `same-origin` or `none` (typed in the address bar), and a POST
 * (explain, replay) must carry `Origin`, which every browser sends on a POST. So no other site
 * can make the dev server fetch for it, replay a call, or read the recorded traffic; a tool
 * without these headers (curl) may read, as it could read the dev server anyway. A link from
 * another site may open the inspector's page itself (a top-level navigation), which holds no data.
 *
 * @example
 * refusalOf(req) // "cross-origin request (Origin http://evil.example)"
 */
export function refusalOf(req: ProxyRequest): string | undefined {
  const own = requestedOrigin(req)
  const origin = req.headers.origin
  if (origin !== undefined && origin !== own) return `cross-origin request (Origin ${origin})`
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !isPageNavigation(req)) {
    return `request from another site (Sec-Fetch-Site: ${site})`
  }
  if (req.method === 'POST' && origin === undefined) return 'POST without Origin'
  return undefined
}
