// Next 16's proxy.ts (here proxy.js: the suite's apps are plain JavaScript), the recipe of
// docs/frameworks/next.md: the suite's routes served by createNextProxy inside plain `next dev`.
import { createNextProxy } from '@cors-dev-proxy/next'
import { routes } from '../routes.mjs'

// proxy.ts is handed no WebSocket upgrade, and createNextProxy refuses a ws route by name: the
// custom server (apps/next) carries it.
const httpRoutes = Object.fromEntries(Object.entries(routes).filter(([, route]) => route.ws !== true))

// No `timeout`: checks.mjs's 60 s answer must come through with the defaults users have.
export const proxy = createNextProxy(httpRoutes)

// The routes' prefixes, and the overlay's and inspector's endpoints (Next reads this statically).
export const config = {
  matcher: [
    '/api/:path*',
    '/cors-api/:path*',
    '/rec-api/:path*',
    '/fault-api/:path*',
    '/down/:path*',
    '/__cors-dev-proxy/:path*',
  ],
}
