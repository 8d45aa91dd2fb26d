import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import type { CorsDevProxyConfig, CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { createDevServerProxy, type DevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { keepFetchHintOverNext } from './next-fetch-hint.js'
import { markNextServer } from './next-server-marker.js'
import { isNextUpgrade, routeUpgrades } from './next-upgrades.js'
import { checkAtStart } from './start-error.js'

/** The options of `next()` this package passes on (`dev`, `turbopack`, `dir`, `hostname`, `port`...). */
export interface NextAppOptions {
  dev?: boolean | undefined
  turbopack?: boolean | undefined
  dir?: string | undefined
  hostname?: string | undefined
  port?: number | undefined
  [key: string]: unknown
}

/** What this package uses of the app `next()` returns. */
export interface NextAppLike {
  prepare(): Promise<void>
  getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
  close?(): Promise<void>
}

/** `next`, the default export of the `next` package. */
export type NextFactory = (options: NextAppOptions & { httpServer?: EventEmitter }) => NextAppLike

/** The server `createNextServer` returns, not listening yet. */
export interface NextServer {
  /** The HTTP server to `listen` on: routes first, then Next. */
  readonly server: Server
  /** The prepared Next app. */
  readonly app: NextAppLike
  /** The proxy: its resolved routes and logger. */
  readonly proxy: DevServerProxy
}

/** A request that failed with an error nobody answered (Next's handler rejected, a route step threw): 500. */
function answerFailure(res: ServerResponse, proxy: DevServerProxy, error: unknown): void {
  const req = res.req as IncomingMessage | undefined
  proxy.logger.error(`the custom server answered ${req?.method} ${req?.url} with 500: ${String(error)}`)
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
  res.end('Internal Server Error\n')
}

/**
 * Creates the custom server of a Next app in development with cors-dev-proxy in front of Next:
 * the routes' requests and `ws` upgrades are answered by the proxy before Next sees them (event
 * streams unbuffered, the route's own `timeout`, `Set-Cookie` and `Location` rewritten, a dead
 * target a 502 that says why), `/__cors-dev-proxy/` serves the overlay's script and the inspector, Next's HMR
 * socket and every other upgrade go to Next's own upgrade handling, once the server listens
 * the routes line is printed and `CORS_DEV_PROXY_URL` tells `serverFetch` where it is, and a
 * server component's `fetch('/api/…')` is explained in the log (`keepFetchHintOverNext`). The
 * routes are validated first: a misspelt option rejects with `CorsDevProxyError` with its name
 * before Next starts, and when nothing handles that rejection (the `await` at the top of
 * `server.mjs`), the process prints the message alone and ends with exit code 1.
 *
 * Why Next gets a stand-in for `httpServer`: a custom server's Next app adds its own `upgrade`
 * listener (the one that serves its HMR socket) to the server of its first request, where it
 * would answer the sockets of `ws` routes as well; given `httpServer`, it listens there instead,
 * and only the upgrades no route takes are emitted there. `app.getUpgradeHandler()` is no
 * substitute: in Next 16 it reaches the render server's `handleUpgrade`, which does nothing, and
 * the HMR socket would never open.
 *
 * @example
 * // server.mjs
 * import next from 'next'
 * import { createNextServer } from '@cors-dev-proxy/next'
 * const { server } = await createNextServer(next, { dev: true, turbopack: true }, { '/api': 'http://localhost:8080' })
 * server.listen(3000, '127.0.0.1')
 */
export async function createNextServer(
  next: NextFactory,
  nextOptions: NextAppOptions,
  routes: Routes | CorsDevProxyConfig,
  options?: CorsDevProxyOptions,
): Promise<NextServer> {
  const resolved = checkAtStart(() => resolveOptions(routes, options))
  // Before next(), which loads next.config: withCorsDevProxy then knows every option is served.
  markNextServer()
  const nextUpgrades = new EventEmitter()
  const app = next({ ...nextOptions, httpServer: nextUpgrades })
  await app.prepare()
  const handle = app.getRequestHandler()
  const server = createServer()
  const upgrades = routeUpgrades(nextUpgrades)
  // First, so that Next's HMR socket never waits on the proxy and each upgrade's head is kept.
  server.on('upgrade', upgrades.first)
  const proxy = createDevServerProxy(resolved, {
    server,
    isOwnUpgrade: isNextUpgrade,
    unclaimedUpgrade: upgrades.unclaimed,
    // Next's project folder, as `next()` resolves its `dir`: where a relative `recordings.dir` goes.
    root: resolve(nextOptions.dir ?? '.'),
  })
  // The proxy's hint about a server-side fetch('/api/…') stays in front of the fetch Next installs later.
  server.once('close', keepFetchHintOverNext())
  const toNext = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => answerFailure(res, proxy, error))
  }
  server.on('request', function corsDevProxyBeforeNext(req: IncomingMessage, res: ServerResponse) {
    if (!proxy.claims(req)) {
      toNext(req, res)
      return
    }
    try {
      proxy.middleware(req, res, (error) => {
        if (error === undefined || error === null) toNext(req, res)
        else answerFailure(res, proxy, error)
      })
    } catch (error) {
      // A throw from a `request` listener would take the dev server down.
      answerFailure(res, proxy, error)
    }
  })
  server.once('close', () => void app.close?.())
  return Object.freeze({ server, app, proxy })
}
