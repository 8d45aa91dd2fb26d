import { CorsDevProxyError } from '../config/errors.js'
import type { RequestOptions } from '../config/hook-options.js'
import { isPlainObject } from '../config/option-path.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import { checkHeaders } from '../config/validate-headers.js'
import type { HeaderEntry } from '../http/header-list.js'

/**
 * A fresh copy of the route as written (`route.source`, frozen) for one request of a route with
 * a `router`: what http-proxy-middleware 4 hands its router (`Object.assign({}, options)` per
 * request). `headers` is copied too, so a router that sets one header changes this request
 * only, where hpm's shallow copy would change every later request.
 *
 * @example
 * const options = copyRouteOptions(route.source)
 * route.router(req, res, options)
 */
export function copyRouteOptions(source: Readonly<Record<string, unknown>>): RequestOptions {
  const headers = source.headers
  return { ...source, headers: isPlainObject(headers) ? { ...headers } : {} }
}

/** Whether two header objects as written hold the same names and values. */
function sameHeaders(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>) {
  const names = Object.keys(after)
  if (names.length !== Object.keys(before).length) return false
  for (const name of names) {
    if (!Object.hasOwn(before, name) || before[name] !== after[name]) return false
  }
  return true
}

/**
 * The route's fixed upstream headers for one request, after user code changed `headers` on the
 * request's copy (see {@link copyRouteOptions}): `routeHeaders` itself when nothing changed (no
 * allocation), else the route's headers without those it had as written, plus the copy's,
 * validated as at start-up. A value that could not be sent (CR/LF, a per-connection header) is
 * a {@link RouterAnswerError} naming `option` (the router), answered 502.
 *
 * @example
 * headersForRequest(route.headers, route.source, options, "routes['/api'].router")
 */
export function headersForRequest(
  routeHeaders: readonly HeaderEntry[],
  source: Readonly<Record<string, unknown>>,
  options: RequestOptions,
  option: string,
): readonly HeaderEntry[] {
  const before = isPlainObject(source.headers) ? source.headers : {}
  const after = options.headers ?? {}
  if (isPlainObject(after) && sameHeaders(before, after)) return routeHeaders
  let changed: HeaderEntry[]
  try {
    changed = checkHeaders(after, 'options.headers') ?? []
  } catch (error) {
    const detail = error instanceof CorsDevProxyError ? error.message.split('\n')[0] : String(error)
    throw new RouterAnswerError(`${option} set ${detail?.replace('[cors-dev-proxy] ', '')}`)
  }
  const dropped = new Set(Object.keys(before).map((name) => name.toLowerCase()))
  const headers = routeHeaders.filter(([name]) => !dropped.has(name))
  const index = new Map(headers.map(([name], at) => [name, at]))
  for (const entry of changed) {
    const at = index.get(entry[0])
    if (at === undefined) headers.push(entry)
    else headers[at] = entry
  }
  return headers
}
