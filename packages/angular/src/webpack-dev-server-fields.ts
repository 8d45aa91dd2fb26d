import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { DevServerProxy } from '@cors-dev-proxy/core/adapter'
import type { DevServerRelay } from './dev-server-relay.js'

/** The part of http-proxy-middleware 4's proxy server (httpxy) the plugin replaces. */
export interface HttpxyServer {
  web: (...args: never[]) => unknown
  ws: (...args: never[]) => unknown
}

/**
 * What webpack-dev-server (under the webpack `browser` builder) reads from an entry: version 6
 * hands each entry to http-proxy-middleware 4, with `context` as its `pathFilter`; version 5
 * (Angular 21) to http-proxy-middleware 2, with `context` as its context when `target` is set.
 */
export interface WebpackDevServerFields {
  /** http-proxy-middleware's `pathFilter`: the requests the routes claim (under version 4 only). */
  context: (path: string, req: IncomingMessage) => boolean
  /** Makes webpack-dev-server 5 pass `context` on; the replaced `web` never uses it. */
  target: string
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

/** Which proxy took the entries, from what it called when it started; none: webpack-dev-server 5. */
export interface EntryHost {
  kind: 'vite' | 'http-proxy-middleware-4' | undefined
}

/** The servers whose upgrades {@link takeServerUpgrades} already listens to. */
const upgradesTaken = new WeakSet<Server>()

/**
 * Under webpack-dev-server 5, whose http-proxy-middleware 2 cannot hand an upgrade over: listens
 * to the upgrades of the server `req` came through, once, and hands the ones a route claims to
 * the relay (`context` keeps http-proxy-middleware 2 off them, and off every request).
 */
export function takeServerUpgrades(req: IncomingMessage, { proxy, relay }: ServingProxy): void {
  const server = (req.socket as (Socket & { server?: Server }) | undefined)?.server
  if (server === undefined || upgradesTaken.has(server)) return
  upgradesTaken.add(server)
  server.on('upgrade', (upgrade: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (proxy.claims(upgrade)) relay.emit('upgrade', upgrade, socket, head)
  })
}

/**
 * The fields that make an entry work under webpack-dev-server too, where `configure` is never
 * called: http-proxy-middleware 4 (webpack-dev-server 6) runs its `plugins` once with its proxy
 * server, whose `web(req, res, options)` and `ws(req, socket, options, head)` the plugin
 * replaces; webpack-dev-server 5 calls `bypass` before each request instead, and its
 * http-proxy-middleware 2 is kept off everything (see `takeServerUpgrades`).
 *
 * @example
 * const entry = { ws, configure, bypass, ...webpackDevServerFields(serving, host) }
 */
export function webpackDevServerFields(serving: () => ServingProxy, host: EntryHost): WebpackDevServerFields {
  /** The upgrades already handed to the relay. */
  const relayed = new WeakSet<IncomingMessage>()
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
    // webpack-dev-server 6 hands each upgrade to the proxy of every entry with `ws`, and each
    // entry's `context` claims every route's path: the first hands it over, the others leave it.
    if (relayed.has(req)) return
    relayed.add(req)
    const { relay } = serving()
    relay.learn(req.socket)
    relay.emit('upgrade', req, socket, head)
  }

  return {
    context: (_path, req) => host.kind === 'http-proxy-middleware-4' && serving().proxy.claims(req),
    target: UNUSED_TARGET,
    router: () => UNUSED_TARGET,
    plugins: [
      function corsDevProxyInWebpackDevServer(server) {
        host.kind = 'http-proxy-middleware-4'
        server.web = web as HttpxyServer['web']
        server.ws = ws as HttpxyServer['ws']
      },
    ],
  }
}
