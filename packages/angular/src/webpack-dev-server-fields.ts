import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { DevServerProxy } from '@cors-dev-proxy/core/adapter'
import type { DevServerRelay } from './dev-server-relay.js'

/** The part of http-proxy-middleware 4's proxy server (httpxy) the plugin replaces. */
export interface HttpxyServer {
  web: (...args: never[]) => unknown
  ws: (...args: never[]) => unknown
}

/**
 * What webpack-dev-server 6 (under the webpack `browser` builder) reads from an entry: it
 * hands each entry to http-proxy-middleware 4, with `context` as its `pathFilter`.
 */
export interface WebpackDevServerFields {
  /** http-proxy-middleware's `pathFilter`: the requests the routes claim. */
  context: (path: string, req: IncomingMessage) => boolean
  /** Satisfies http-proxy-middleware's check for a target; the replaced `web` never uses it. */
  router: () => string
  /** Replaces the proxy server's `web` and `ws` with the core's proxy. */
  plugins: Array<(server: HttpxyServer) => void>
}

/** The core's proxy for one dev server, and what stands for that server. */
export interface ServingProxy {
  readonly proxy: DevServerProxy
  readonly relay: DevServerRelay
}

/** Never contacted: `web` and `ws` are replaced before http-proxy-middleware could use it. */
const UNUSED_TARGET = 'http://127.0.0.1:9'

/**
 * The fields that make an entry work under webpack-dev-server too, where neither `configure`
 * nor `bypass` is called: http-proxy-middleware 4 runs its `plugins` once with its proxy server,
 * whose `web(req, res, options)` and `ws(req, socket, options, head)` the plugin replaces.
 *
 * @example
 * const entry = { ws, configure, bypass, ...webpackDevServerFields(serving) }
 */
export function webpackDevServerFields(serving: () => ServingProxy): WebpackDevServerFields {
  function web(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { proxy, relay } = serving()
    relay.learn(req.socket)
    return new Promise((resolve, reject) => {
      res.once('close', () => resolve())
      proxy.middleware(req, res, (error) => {
        if (error !== undefined && error !== null) {
          reject(error)
          return
        }
        // webpack-dev-server's proxy has no way to hand a request back to its app.
        if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        res.end('Not Found: its route handed the request on (pathFilter or bypass).')
      })
    })
  }

  function ws(req: IncomingMessage, socket: Duplex, _options: unknown, head: Buffer): void {
    const { relay } = serving()
    relay.learn(req.socket)
    relay.emit('upgrade', req, socket, head)
  }

  return {
    context: (_path, req) => serving().proxy.claims(req),
    router: () => UNUSED_TARGET,
    plugins: [
      function corsDevProxyInWebpackDevServer(server) {
        server.web = web as HttpxyServer['web']
        server.ws = ws as HttpxyServer['ws']
      },
    ],
  }
}
