import { withCorsDevProxy } from '@cors-dev-proxy/next'
import { routes } from '../routes.mjs'

// The routes checked when Next loads its config (a misspelt option stops `next dev` with its
// name), and serverFetch pointed at this server. Next hands proxy.ts at most 10 MB of a request
// body by default (`proxyClientMaxBodySize`): raised for the suite's 20 MB upload.
export default withCorsDevProxy({ experimental: { proxyClientMaxBodySize: '64mb' } }, routes)
