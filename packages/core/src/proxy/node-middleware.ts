/*
 * The Node front end, `createCorsDevProxy`: a connect/Express middleware (and the bare request
 * handler of `http`, `https` and `http2` servers), on the one assembly (assemble-proxy.ts), so
 * it serves the same endpoints under `/__cors-dev-proxy/` as the dev-server adapters and the
 * Fetch handler. It knows nothing of its host: replays go to the server the inspector's own
 * requests arrive on, and the user wires `upgrade` and `connect`.
 */
import type { CorsDevProxyConfig } from '../config/define-config.js'
import type { CorsDevProxyOptions, Routes } from '../config/options.js'
import { assembleProxy } from './assemble-proxy.js'
import { subscribeUpgradeOnFirstRequest } from './auto-upgrade.js'
import type { CorsDevProxy } from './create-cors-dev-proxy.js'
import { resolveProxyOptions } from './resolve-proxy-options.js'

/**
 * Creates the proxy: validates and resolves the routes once (a mistake throws
 * `CorsDevProxyError` here, naming the option and showing a fix), builds each route's pipeline
 * once, and returns the handlers a server plugs in. The middleware also serves the overlay's
 * script and the inspector under `/__cors-dev-proxy/` (see `inspector`, `overlay`). Logs go to
 * `options.logger`, else the console. Takes `(routes, options?)` or one `{ routes, ...options }`
 * object (see `defineConfig`).
 *
 * @example
 * const proxy = createCorsDevProxy({ '/api': 'http://localhost:3000', '/socket': { target: 'ws://localhost:3001', ws: true } })
 * const server = http.createServer((req, res) => proxy.middleware(req, res))
 * // false: no ws route takes it; on a server in front of a framework, hand it to the framework instead
 * server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
 * server.on('close', () => proxy.close())
 */
export function createCorsDevProxy(
  routes: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): CorsDevProxy {
  const resolved = resolveProxyOptions(routes, options)
  const proxy = assembleProxy(resolved)
  const { connect } = proxy.engine
  // hpm's wiring for `app.use(proxy.middleware)` alone; nothing added without `ws` routes.
  const { middleware, upgrade } =
    resolved.subscribeUpgrade && resolved.routes.some((route) => route.ws)
      ? subscribeUpgradeOnFirstRequest(proxy.handle, proxy.upgrade)
      : { middleware: proxy.handle, upgrade: proxy.upgrade }
  return Object.freeze({ middleware, upgrade, connect, close: proxy.close, routes: resolved.routes })
}
