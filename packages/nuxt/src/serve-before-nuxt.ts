import type { EventEmitter } from 'node:events'
import { type BeforeAppOptions, serveBeforeApp } from '@cors-dev-proxy/core/adapter'

type Listener = (...args: unknown[]) => void

/** Replaces one listener of `event` by another, keeping every listener's place. */
function swapListener(server: EventEmitter, event: string, from: Listener, to: Listener): void {
  const listeners = server.listeners(event) as Listener[]
  if (!listeners.includes(from)) return
  server.removeAllListeners(event)
  for (const listener of listeners) server.on(event, listener === from ? to : listener)
}

/**
 * Serves the requests a route claims from `nuxt dev`'s listener, before Nuxt sees them, and
 * returns the function that puts Nuxt's own listener back (when this Nuxt instance closes).
 *
 * Why at the listener: everything else in `nuxt dev` comes after it. listhen's server calls
 * `nuxi`'s handler, which waits while Nuxt starts (showing its loading page), then hands the
 * request to Nitro's dev app, whose first handler runs the request through the client Vite
 * server's middlewares and whose last one proxies it to the Nitro worker (`server/api`, the
 * pages). A Nitro dev handler (`addDevServerHandler`) or a middleware on the client Vite server
 * would come after Nuxt's loading page and after the Vite handler's CORS answer to preflights;
 * at the listener the routes are served before all of them, by the one proxy of the process.
 *
 * listhen's server has a second `request` listener (http-shutdown's connection tracking), which
 * keeps running for every request: only the first listener, the app, is wrapped, with the core's
 * `serveBeforeApp` (the adapters' shared early path, `plan` giving the checks to run first).
 *
 * @example
 * nuxt.hook('listen', (server) => {
 *   const restore = serveBeforeNuxt(server, { middleware, claims, plan: () => [hostCheck] })
 *   nuxt.hook('close', restore)
 * })
 */
export function serveBeforeNuxt(server: EventEmitter, options: BeforeAppOptions): () => void {
  const [app, ...others] = server.listeners('request') as Listener[]
  if (app === undefined) return () => {}
  // serveBeforeApp takes over only a server whose one listener is the app: the others step
  // aside while it does, and come back in their places after it.
  for (const other of others) server.removeListener('request', other)
  serveBeforeApp(server, app, options)
  const [front] = server.listeners('request') as Listener[]
  for (const other of others) server.on('request', other)
  return function restoreNuxtListener() {
    if (front !== undefined && front !== app) swapListener(server, 'request', front, app)
  }
}
