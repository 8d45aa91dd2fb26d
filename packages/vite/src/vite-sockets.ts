import type { IncomingMessage } from 'node:http'
import { posix } from 'node:path'

/** `Sec-WebSocket-Protocol` values of Vite's own client: its HMR socket and its reconnect ping. */
const VITE_SOCKET_PROTOCOLS: ReadonlySet<string> = new Set(['vite-hmr', 'vite-ping'])

/** The parts of a resolved Vite config the socket rules read, typed loosely to fit Vite 6, 7 and 8. */
export interface ViteSocketConfig {
  readonly base: string
  readonly server: {
    readonly port?: number | undefined
    readonly hmr?: unknown
    /** Vite 8 moved the HMR socket's options here (`server.hmr.path` is copied over). */
    readonly ws?: unknown
  }
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
}

/**
 * The path of the HMR socket Vite serves on the dev server's own HTTP server, or `undefined`
 * when it serves none there: HMR off (`server.hmr: false`, or Vite 8's `server.ws: false`), a
 * server of its own (`server.hmr.server`), or another port. As Vite computes it: `base`, joined
 * with `server.ws.path` (Vite 8) or `server.hmr.path` (Vite 6 and 7) when set.
 *
 * @example
 * viteHmrPath({ base: '/app/', server: { hmr: { path: 'hmr' } } }) // '/app/hmr'
 */
export function viteHmrPath(config: ViteSocketConfig): string | undefined {
  const { hmr, ws } = config.server
  if (hmr === false || ws === false) return undefined
  const options = objectOf(ws) ?? objectOf(hmr)
  if (options?.server !== undefined) return undefined
  const port = options?.port
  if (typeof port === 'number' && port !== config.server.port) return undefined
  const path = options?.path
  return typeof path === 'string' && path !== '' ? posix.join(config.base, path) : config.base
}

/**
 * Whether an upgrade is Vite's own HMR socket, with Vite's own test: its client's subprotocol on
 * exactly its HMR path. Another Vite app's HMR socket proxied under a route (a micro-frontend)
 * has the same subprotocol on another path, and is the route's to forward.
 *
 * @example
 * isViteHmrUpgrade(req, '/') // true for the page's own HMR client
 */
export function isViteHmrUpgrade(req: IncomingMessage, hmrPath: string | undefined): boolean {
  if (hmrPath === undefined) return false
  const protocol = req.headers['sec-websocket-protocol']
  if (protocol === undefined || !VITE_SOCKET_PROTOCOLS.has(protocol)) return false
  return new URL(`http://vite.invalid${req.url ?? '/'}`).pathname === hmrPath
}
