import type { EventEmitter } from 'node:events'
import type { AddressInfo } from 'node:net'
import { Agent, fetch as undiciFetch } from 'undici'

/**
 * The environment variable that holds the URL of the dev server whose routes server-side code
 * should take. Adapters set it when their server starts listening; an environment variable, not
 * a module variable, because SSR code often runs in another module graph (Vite's module runner)
 * or another thread (Nitro's dev worker), which inherit the environment but share no modules.
 * In production, set it yourself to the origin that serves the same routes.
 */
export const SERVER_URL_VARIABLE = 'CORS_DEV_PROXY_URL'

/** Hosts a server listens on that mean "every interface": reached here on the IPv4 loopback. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::', ''])

/** The URL a process reaches its own listening server at: loopback, its port, its scheme. */
export function loopbackUrl(server: EventEmitter): string | undefined {
  const address = (server as { address?: () => AddressInfo | string | null }).address?.()
  if (address === null || address === undefined || typeof address === 'string') return undefined
  // A TLS server (https, HTTP/2 with TLS) has a secure context; a plain one does not.
  const scheme = 'setSecureContext' in server ? 'https' : 'http'
  const host = ANY_ADDRESS.has(address.address)
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address
  return `${scheme}://${host}:${address.port}`
}

/**
 * Publishes where a dev server listens, so that {@link serverFetch} in server-side code sends
 * its relative URLs there: now when it already listens, else on its `listening` event. An IP
 * address, never a name, since dev servers accept any IP in `Host` and `localhost` may resolve
 * to an address the server does not listen on. Returns the URL when it was published now.
 *
 * @example
 * publishServerUrl(viteDevServer.httpServer) // process.env.CORS_DEV_PROXY_URL = 'http://127.0.0.1:5173'
 */
export function publishServerUrl(
  server: EventEmitter & { readonly listening?: boolean },
): string | undefined {
  const publish = (): string | undefined => {
    const url = loopbackUrl(server)
    if (url !== undefined) process.env[SERVER_URL_VARIABLE] = url
    return url
  }
  if (server.listening) return publish()
  server.once('listening', publish)
  return undefined
}

// Our own dev server's certificate is usually self-signed: trusted here, for that origin only.
let ownServerAgent: Agent | undefined

function isRelative(input: string): boolean {
  return input.startsWith('/') && !input.startsWith('//')
}

/**
 * `fetch` for server-side code (SSR loaders, API handlers) that calls the same routes the page
 * calls. In the browser, `fetch('/api/items')` goes to the page's origin, the dev server, whose
 * proxy forwards it; on the server there is no page origin, and Node's `fetch` rejects a relative
 * URL ("Failed to parse URL"). `serverFetch('/api/items')` sends it to the dev server that holds
 * the routes, so it takes the very same route: target, `pathRewrite`, `headers`, hooks, `mock`.
 *
 * Where: the URL published by the adapter when the dev server started listening
 * (`CORS_DEV_PROXY_URL`); set that variable yourself in production to the origin that serves the
 * routes (your nginx or Caddy). Absolute URLs and `Request` objects go to `fetch` unchanged.
 * Over HTTPS the dev server's own certificate is accepted, since it is often self-signed, for
 * that loopback origin only.
 *
 * @example
 * // an Astro page, a React Router loader, a Nuxt <script setup>
 * import { serverFetch } from '@cors-dev-proxy/core'
 * const items = await (await serverFetch('/api/items')).json()
 */
export function serverFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (typeof input !== 'string' || !isRelative(input)) return fetch(input, init)
  const url = serverUrl(input)
  if (!url.startsWith('https:')) return fetch(url, init)
  ownServerAgent ??= new Agent({ connect: { rejectUnauthorized: false } })
  // undici's own fetch for the agent: the global one may be another undici, with another handler API.
  return undiciFetch(url, { ...(init as object), dispatcher: ownServerAgent }) as unknown as Promise<Response>
}

/**
 * The absolute URL server-side code reaches a route at: `path` on the dev server that holds the
 * routes (see {@link serverFetch}), for clients other than `fetch` (axios, ofetch, a WebSocket).
 * Throws a `TypeError` that says what to do when no dev server published its URL.
 *
 * @example
 * serverUrl('/api/items?page=2') // 'http://127.0.0.1:5173/api/items?page=2' while `vite` runs
 */
export function serverUrl(path: string): string {
  if (!isRelative(path)) return path
  const base = process.env[SERVER_URL_VARIABLE]
  if (base === undefined || base === '') {
    throw new TypeError(
      `cors-dev-proxy: no dev server to send '${path}' to. serverFetch and serverUrl send relative URLs to the dev ` +
        `server that runs cors-dev-proxy, which publishes its URL in ${SERVER_URL_VARIABLE} once it listens; none ` +
        `has in this process. In production, set ${SERVER_URL_VARIABLE} to the origin that serves these routes, ` +
        `e.g. ${SERVER_URL_VARIABLE}=http://127.0.0.1:8080`,
    )
  }
  return new URL(path, base).href
}
