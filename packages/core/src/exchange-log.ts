import type { CorsDevProxy } from './create-cors-dev-proxy.js'
import type { ProxyRequest, ProxyResponse } from './http/proxy-types.js'
import { describeExchange } from './log/describe-routes.js'
import type { Logger } from './log/logger.js'
import type { NextFunction } from './pipeline/route-pipeline.js'

/**
 * The proxy's middleware as a dev-server adapter mounts it: at `log: 'debug'` each request the
 * proxy answered is logged with the protocol it arrived on (`h2 GET /api/x → 200`), so both
 * adapters speak one format; at any other level it is the engine's middleware as is.
 *
 * @example
 * server.middlewares.use(createLoggedMiddleware(proxy, logger))
 */
export function createLoggedMiddleware(
  proxy: CorsDevProxy,
  logger: Logger,
): (req: ProxyRequest, res: ProxyResponse, next: NextFunction) => void {
  if (logger.level !== 'debug') {
    return function corsDevProxyMiddleware(req, res, next) {
      proxy.middleware(req, res, next)
    }
  }
  return function corsDevProxyMiddleware(req, res, next) {
    // Requests the proxy passes on (no route matched) belong to the dev server: not logged.
    let passed = false
    res.once('close', () => {
      if (!passed) logger.debug(describeExchange(req, res.statusCode))
    })
    proxy.middleware(req, res, (error) => {
      passed = true
      next(error)
    })
  }
}
