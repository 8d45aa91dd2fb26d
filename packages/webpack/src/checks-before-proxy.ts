import type { AppMiddleware } from '@cors-dev-proxy/core/adapter'
import { handlesBefore } from './app-stack.js'
import type { NamedMiddleware } from './dev-server-types.js'

/** webpack-dev-server's security checks: Host header (DNS rebinding), `Sec-Fetch-*` (cross-site no-cors loads). */
const CHECKS: ReadonlySet<string> = new Set(['host-header-check', 'cross-origin-header-check'])

/**
 * What it may list before the proxy that the proxy does without: over HTTP/2 a patch that makes
 * `res.statusMessage` a no-op for the app's final handler, which the proxy never calls (a
 * request it hands on reaches the app, which applies the patch then).
 */
const PATCHES: ReadonlySet<string> = new Set(['http2-status-message-patch'])

/** The middleware functions of the entries named in `names`. */
function functionsNamed(middlewares: readonly unknown[], names: ReadonlySet<string>): Set<unknown> {
  const found = new Set<unknown>()
  for (const entry of middlewares) {
    const { name, middleware } = (typeof entry === 'object' && entry !== null ? entry : {}) as NamedMiddleware
    if (name !== undefined && names.has(name)) found.add(middleware)
  }
  return found
}

/**
 * The `plan` of `serveBeforeApp` for webpack-dev-server: reads what the app (Express 4 or 5, or
 * connect) runs before the proxy's listed middleware, and answers webpack-dev-server's checks
 * among them, in order, or `undefined` when anything else comes first (a middleware of the
 * user's, one mounted on a path), which keeps the proxy inside the app. `middlewares` is the list
 * webpack-dev-server gave `setupMiddlewares`, where its checks are found by name.
 *
 * @example
 * serveBeforeApp(devServer.server, devServer.app, { middleware, claims, plan: checksBeforeProxy(devServer.app, middlewares) })
 */
export function checksBeforeProxy(
  app: unknown,
  middlewares: readonly unknown[],
): (listed: AppMiddleware) => AppMiddleware[] | undefined {
  const checks = functionsNamed(middlewares, CHECKS)
  const patches = functionsNamed(middlewares, PATCHES)
  return function planBeforeApp(listed) {
    const before = handlesBefore(app, listed)
    if (before === undefined) return undefined
    const run: AppMiddleware[] = []
    for (const handle of before) {
      if (checks.has(handle)) run.push(handle as AppMiddleware)
      else if (!patches.has(handle)) return undefined
    }
    return run
  }
}
