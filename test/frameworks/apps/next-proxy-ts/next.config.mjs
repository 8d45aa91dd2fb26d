import { withCorsDevProxy } from '@cors-dev-proxy/next'
import { routes } from '../routes.mjs'

// The routes proxy.js serves, checked when Next loads its config: a misspelt option, or one
// proxy.ts cannot serve (a ws route, on.proxyReq), stops `next dev` with its name. The ws route
// stays with the custom server (apps/next), as in proxy.js. Next hands proxy.ts at most 10 MB of
// a request body by default (`proxyClientMaxBodySize`): raised for the suite's 20 MB upload.
const httpRoutes = Object.fromEntries(Object.entries(routes).filter(([, route]) => route.ws !== true))

export default withCorsDevProxy({ experimental: { proxyClientMaxBodySize: '64mb' } }, httpRoutes)
