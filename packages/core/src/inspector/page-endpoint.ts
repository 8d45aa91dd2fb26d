import type { ProxyResponse } from '../http/proxy-types.js'
import { SCRIPT_TYPE, sendOwn, TEXT_TYPE } from './endpoint-answers.js'
import { inspectorPage } from './inspector-page.js'

const HTML_TYPE = 'text/html; charset=utf-8'
/** The page's own scripts and styles only; its data comes from the same origin. */
const PAGE_POLICY: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"],
]
/** What `/__cors-dev-proxy/` shows with `inspector: false` (the overlay still links it). */
const INSPECTOR_OFF_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cors-dev-proxy inspector</title><link rel="icon" href="data:,"></head><body><p>The cors-dev-proxy inspector is off in this dev server\'s config (<code>inspector: false</code>): remove it to list the exchanges here.</p></body></html>\n'

/**
 * `GET /__cors-dev-proxy/`: the inspector's page. At both `/__cors-dev-proxy/` and
 * `/__cors-dev-proxy`, not a redirect from one to the other: Next strips the trailing slash with
 * a 308 before proxy.ts runs, and a redirect back would loop. Its links are absolute.
 *
 * @example
 * if (read && isPagePath(path)) servePage(res)
 */
export function servePage(res: ProxyResponse): void {
  sendOwn(res, 200, HTML_TYPE, inspectorPage(), PAGE_POLICY)
}

/**
 * `GET /__cors-dev-proxy/inspector.js`: the page's script (see `clientScripts`).
 *
 * @example
 * serveScript(res, scripts.inspector)
 */
export function serveScript(res: ProxyResponse, source: string): void {
  sendOwn(res, 200, SCRIPT_TYPE, source)
}

/**
 * With `inspector: false`: the page says so (the overlay links it), anything else is a 404.
 *
 * @example
 * serveInspectorOff(res, read && isPagePath(path))
 */
export function serveInspectorOff(res: ProxyResponse, page: boolean): void {
  if (page) sendOwn(res, 200, HTML_TYPE, INSPECTOR_OFF_PAGE)
  else sendOwn(res, 404, TEXT_TYPE, 'cors-dev-proxy: the inspector is off (inspector: false)\n')
}

/**
 * Whether a path below `/__cors-dev-proxy` is the page's (`/`, or nothing).
 *
 * @example
 * isPagePath('') // true
 */
export function isPagePath(path: string): boolean {
  return path === '/' || path === ''
}
