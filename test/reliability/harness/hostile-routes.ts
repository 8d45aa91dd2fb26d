import type { Routes } from '@cors-dev-proxy/core'
import type { RecordingTarget } from './recording-target.js'

/**
 * The routes every hostile suite installs, the same on every front end:
 * - `/api` → the target's `/base` (a base path, so a path that climbs out of it is visible),
 *   with WebSockets;
 * - `/cors` → the target's `/cors`, with the default CORS policy (localhost and loopback
 *   origins only) and WebSockets, whose upgrades then pass the same origin policy;
 * - `/jsonp` → the target's `/jsonp`, with JSONP.
 */
export function hostileRoutes(target: RecordingTarget): Routes {
  return {
    '/api': { target: `${target.url}/base`, ws: true },
    '/cors': { target: `${target.url}/cors`, cors: true, ws: true },
    '/jsonp': { target: `${target.url}/jsonp`, jsonp: true },
  }
}

/**
 * The paths the target may see from these routes: under one of the three base paths. A path
 * outside them (`/secret`, `/base/../secret` once resolved) means a request climbed out.
 */
export function isUnderARoute(url: string): boolean {
  const path = url.split('?')[0] as string
  return ['/base', '/cors', '/jsonp'].some((base) => path === base || path.startsWith(`${base}/`))
}
