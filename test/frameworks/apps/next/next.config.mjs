import { withCorsDevProxy } from '@cors-dev-proxy/next'

// The routes are the custom server's (server.mjs); here, what server components need for serverFetch.
export default withCorsDevProxy({})
