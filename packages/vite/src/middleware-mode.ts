import type { EventEmitter } from 'node:events'
import { posix } from 'node:path'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import type { DevServerProxy } from '@cors-dev-proxy/core/adapter'
import type { ViteDevServer } from 'vite'
import type { ViteSocketConfig } from './vite-sockets.js'

/** A server `attachCorsDevProxy` takes: Node's http, https or http2 server, or one like them. */
export type AttachableServer = EventEmitter & { readonly listening?: boolean }

/**
 * The proxies of each Vite server in middleware mode (usually one), waiting for the user's
 * server, keyed by its connect app so `attachCorsDevProxy(vite, server)` finds them.
 */
const waiting = new WeakMap<object, DevServerProxy[]>()
/** Whether a proxy was attached, so the warning below is given only when it was not. */
const attached = new WeakSet<DevServerProxy>()

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
}

/**
 * The user's server that Vite's HMR socket runs on in middleware mode (`server.hmr.server`), if
 * the user gave one: the server the page is served from, so upgrades can be wired to it at once.
 *
 * @example
 * hmrServerOf({ server: httpServer }) // httpServer
 */
export function hmrServerOf(hmr: unknown): AttachableServer | undefined {
  const server = objectOf(hmr)?.server
  return typeof objectOf(server)?.on === 'function' ? (server as AttachableServer) : undefined
}

/**
 * The path of Vite's HMR socket on the user's server in middleware mode, where Vite runs it when
 * `server.hmr.server` is that server (`base` joined with `hmr.path`), else `undefined` (HMR then
 * has a port of its own, 24678 by default, and nothing on the user's server is Vite's).
 *
 * @example
 * middlewareHmrPath({ base: '/', server: { hmr: { server: httpServer } } }) // '/'
 */
export function middlewareHmrPath(config: ViteSocketConfig): string | undefined {
  const { hmr, ws } = config.server
  if (hmr === false || ws === false) return undefined
  const options = objectOf(ws) ?? objectOf(hmr)
  if (options?.server === undefined) return undefined
  const path = options.path
  return typeof path === 'string' && path !== '' ? posix.join(config.base, path) : config.base
}

/**
 * Remembers a middleware-mode proxy of `vite` for {@link attachCorsDevProxy}. Keyed by the
 * connect app, which `configureServer` and `createServer`'s result share (Vite 8 hands plugins
 * another object than the one `createServer` returns).
 */
export function registerDetached(vite: Pick<ViteDevServer, 'middlewares'>, proxy: DevServerProxy): void {
  const list = waiting.get(vite.middlewares) ?? []
  list.push(proxy)
  waiting.set(vite.middlewares, list)
}

/**
 * The proxy's middleware for a middleware-mode Vite server, saying once what to do when its
 * proxy has `ws` routes, serves its first request, and nobody attached it to a server: its
 * WebSocket routes cannot work yet. Not at start-up, since the documented call comes after
 * `createServer` (the server listens later), and not for a Vite server that never serves a
 * request (frameworks that make a second one for SSR).
 *
 * @example
 * server.middlewares.use(checkAttached(proxy.middleware, proxy))
 */
export function checkAttached<M extends (req: never, res: never, next: never) => void>(
  middleware: M,
  proxy: DevServerProxy,
): M {
  if (!proxy.routes.some((route) => route.ws)) return middleware
  let checked = false
  return function corsDevProxyMiddlewareMode(req, res, next) {
    if (!checked) {
      checked = true
      if (!attached.has(proxy)) {
        proxy.logger.warn(
          'Vite runs in middleware mode, and WebSocket upgrades of ws routes need your server: call ' +
            "attachCorsDevProxy(vite, server) from '@cors-dev-proxy/vite' once your server exists, " +
            'or pass it to Vite as server.hmr.server.',
        )
      }
    }
    middleware(req, res, next)
  } as M
}

/**
 * Wires cors-dev-proxy to your own server when Vite runs in middleware mode
 * (`server.middlewareMode`, a custom SSR server on Express or node:http): WebSocket upgrades of
 * `ws` routes (Vite never sees your server's upgrades), CONNECT answered 400, the proxy closed
 * with the server, and the URL `serverFetch` uses for server-side calls. HTTP routes need no
 * call: they are in `vite.middlewares`. Not needed when you pass the server to Vite as
 * `server.hmr.server` (done then by the plugin), and never with Vite's own server.
 *
 * @example
 * const vite = await createServer({ server: { middlewareMode: true }, plugins: [corsDevProxy(routes)] })
 * app.use(vite.middlewares)
 * const server = app.listen(5173)
 * attachCorsDevProxy(vite, server)
 */
export function attachCorsDevProxy(vite: ViteDevServer, server: AttachableServer): void {
  const proxies = waiting.get(vite.middlewares)
  if (proxies === undefined) {
    // Vite's own server is wired by the plugin already; without the plugin there is nothing to wire.
    if (vite.httpServer) return
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      'plugins',
      'holds no corsDevProxy() for attachCorsDevProxy(vite, server) to wire: add it to the Vite server you pass.',
      "createServer({ server: { middlewareMode: true }, plugins: [corsDevProxy({ '/api': 'http://localhost:3000' })] })",
    )
  }
  for (const proxy of proxies) {
    attached.add(proxy)
    proxy.attach(server)
  }
}
