import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import type { MaskRules } from '../file-masking.js'
import { type RequestKey, requestKey } from './recording-key.js'

/*
 * The key of a request on its route: the same for the record tap and the replayer, so what is
 * recorded is found again (the route's `match` rules applied on both sides).
 */

/** The request's path relative to the route's prefix (`/api/users?x` on `/api` → `/users?x`). */
export function relativePath(prefix: string, path: string): string {
  if (prefix === '/') return path
  const rest = path.slice(prefix.length)
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest
}

/**
 * The key of `req` (at `path`, its body `body`) on `route`.
 *
 * @example
 * const key = routeKey(route, store.options, req, '/api/items?_t=1', undefined)
 */
export function routeKey(
  route: ResolvedForwardRoute,
  rules: MaskRules,
  req: ProxyRequest,
  path: string,
  body: Buffer | undefined,
): RequestKey {
  return requestKey(
    {
      method: req.method ?? 'GET',
      path: relativePath(route.prefix, path),
      body,
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
      headers: req.headers,
    },
    rules,
    route.match,
  )
}
