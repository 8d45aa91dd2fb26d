import type { IncomingMessage } from 'node:http'
import { posix } from 'node:path'

/** `Sec-WebSocket-Protocol` values of Vite's client: its HMR socket and its reconnect ping. */
const VITE_SOCKET_PROTOCOLS: ReadonlySet<string> = new Set(['vite-hmr', 'vite-ping'])

/** The parts of Vite's `server` options that move the HMR socket, typed loosely (Vite 6 to 8). */
export interface HmrServerOptions {
  readonly hmr?: unknown
  /** Vite 8.1+ reads the socket's options here; older versions read `hmr`. */
  readonly ws?: unknown
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
}

/**
 * The path of Vite's HMR socket on `nuxt dev`'s listener, or `undefined` when HMR is off.
 *
 * In Nuxt, Vite runs in middleware mode and `nuxi dev` hands it the listener's HTTP server for
 * its socket (`server.ws.server`/`server.hmr.server`), so the client's socket arrives on the
 * same port as the pages, at the client Vite server's `base` (`app.baseURL` joined with
 * `app.buildAssetsDir`, `/_nuxt/` by default) joined with `ws.path`/`hmr.path` when set, with the
 * subprotocol `vite-hmr`. (The SSR Vite server's socket is on a port of its own.)
 *
 * @example
 * nuxtHmrPath('/_nuxt/', {})                        // '/_nuxt/'
 * nuxtHmrPath('/_nuxt/', { hmr: { path: 'hmr' } })  // '/_nuxt/hmr'
 */
export function nuxtHmrPath(base: string, server: HmrServerOptions | undefined): string | undefined {
  if (server?.hmr === false || server?.ws === false) return undefined
  const path = (objectOf(server?.ws) ?? objectOf(server?.hmr))?.path
  return typeof path === 'string' && path !== '' ? posix.join(base, path) : base
}

/**
 * Whether an upgrade is Vite's own HMR socket, by Vite's own test: its client's subprotocol on
 * exactly its HMR path. Such a socket is never forwarded, whatever `ws` route covers the path.
 *
 * @example
 * isHmrUpgrade(req, '/_nuxt/') // true for the page's HMR client
 */
export function isHmrUpgrade(req: IncomingMessage, hmrPath: string | undefined): boolean {
  if (hmrPath === undefined) return false
  const protocol = req.headers['sec-websocket-protocol']
  if (protocol === undefined || !VITE_SOCKET_PROTOCOLS.has(protocol)) return false
  return new URL(`http://nuxt.invalid${req.url ?? '/'}`).pathname === hmrPath
}
