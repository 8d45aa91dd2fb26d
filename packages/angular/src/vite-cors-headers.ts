import type { ServerResponse } from 'node:http'

/**
 * Removes what Vite's `server.cors` middleware put on a response before the proxy saw it.
 *
 * Why: `ng serve` sets `server.cors: { preflightContinue: true }`, so Vite's `cors` middleware
 * (the `cors` package, before the proxy) writes `Access-Control-Allow-Origin` for any localhost
 * origin, and on an `OPTIONS` also `-Allow-Methods` and `-Allow-Headers`, then passes the
 * request on. Left there, they would be sent with the backend's answer, or the route's `cors`
 * policy's, whatever those say: a preflight the backend refuses would pass in the browser.
 */
export function dropViteCorsHeaders(
  res: Pick<ServerResponse, 'getHeaderNames' | 'getHeader' | 'removeHeader'>,
): void {
  for (const name of res.getHeaderNames()) {
    if (name.startsWith('access-control-')) res.removeHeader(name)
  }
  // The `cors` package adds `Vary: Origin` when it reflects the origin; nothing else has set Vary yet.
  if (res.getHeader('vary') === 'Origin') res.removeHeader('vary')
}
