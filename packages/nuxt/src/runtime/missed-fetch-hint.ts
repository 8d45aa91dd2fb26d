import { Socket } from 'node:net'

/** What the hint knows of a route: its prefix, and where `serverFetch` would take the call. */
export interface MissedFetchRoute {
  /** The route's prefix, normalized by the core (`/api`; `/` for the root route). */
  readonly prefix: string
  /** Where the route sends a call, for the message: a target URL without credentials, or `its mock backend`. */
  readonly target: string
}

/** The parts of an h3 (v1) event the hint reads; every part optional, since it must never throw. */
export interface NitroEventLike {
  readonly path?: string
  readonly node?: { readonly req?: { readonly url?: string; readonly socket?: unknown } }
}

/** The part of a Nitro app the plugin uses: its hooks. */
export interface NitroAppLike {
  readonly hooks: { hook(name: 'request', hook: (event: NitroEventLike) => void): unknown }
}

/**
 * Distinct paths explained one by one; past this many, one line per route at most, so that code
 * calling `$fetch('/api/items/' + id)` in a loop cannot grow the set without end.
 */
const MAX_PATHS = 100

/**
 * The core's `prefixMatches`, copied: `@cors-dev-proxy/core/adapter` would load the whole proxy
 * (undici included) into Nitro's dev worker, where this is the only thing needed, and the core
 * has no smaller entry. `test/runtime/missed-fetch-hint.test.ts` keeps the two in agreement.
 */
function prefixMatches(prefix: string, path: string): boolean {
  if (prefix === '/') return true
  if (!path.startsWith(prefix)) return false
  return path.length === prefix.length || path.charCodeAt(prefix.length) === 0x2f
}

/** The path part of a request target (`/api/x?q` → `/api/x`). */
function pathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * Whether a Nitro request came from inside the process (`$fetch`, `useFetch`, `event.fetch`:
 * Nitro's `localFetch` calls its app with node-mock-http's request, which has no network socket)
 * rather than through the dev worker's HTTP server, where every request has a `net.Socket`.
 * The second kind includes what the proxy let through (a route's `pathFilter` or `bypass`).
 */
function isInProcess(event: NitroEventLike): boolean {
  const socket = event.node?.req?.socket
  return socket !== undefined && !(socket instanceof Socket)
}

/**
 * Explains, once per path, a server-side call to a route's path that went to Nitro: returns the
 * function to call with each in-process request's URL. `warn` gets one line per path (the query
 * left out of the key), or per route once `MAX_PATHS` paths were explained.
 *
 * @example
 * const explain = createMissedFetchHint([{ prefix: '/api', target: 'http://localhost:8080' }], console.warn)
 * explain('/api/items?page=2') // one line, naming serverFetch and http://localhost:8080
 * explain('/api/items')        // nothing: explained already
 */
export function createMissedFetchHint(
  routes: readonly MissedFetchRoute[],
  warn: (line: string) => void,
): (url: string, how?: 'nitro' | 'relative') => void {
  // Longest prefix first, as the proxy matches: the message names the route that would serve it.
  const sorted = [...routes].sort((a, b) => b.prefix.length - a.prefix.length)
  const explained = new Set<string>()
  return function explainMissedFetch(url, how = 'nitro') {
    const path = pathOf(url)
    const route = sorted.find((candidate) => prefixMatches(candidate.prefix, path))
    if (route === undefined) return
    const key = explained.size < MAX_PATHS ? path : route.prefix
    if (explained.has(key)) return
    explained.add(key)
    const what =
      how === 'nitro'
        ? "went to Nitro, not to the proxy: server-side code has no page origin, so $fetch and useFetch call Nitro's own routes."
        : 'has no page origin there, so Node\'s fetch fails ("Failed to parse URL") and the call never reaches the proxy.'
    warn(
      `[cors-dev-proxy] fetch('${url}') ran on the server and ${what} Use serverFetch('${url}') from ` +
        `'@cors-dev-proxy/core' (it takes the '${route.prefix}' route to ${route.target}).`,
    )
  }
}

/** Set on the `fetch` wrapper, so a reloaded worker module does not wrap it twice. */
const WRAPPED = Symbol.for('cors-dev-proxy.relativeFetchHint')

/**
 * Wraps the worker's `globalThis.fetch` so that a relative URL a route claims
 * (`fetch('/api/items')` in a `server/api` handler) is explained once per path, then passed to
 * the real `fetch` unchanged: Nitro does not patch `fetch`, and Node rejects a relative URL with
 * an error that says nothing about the proxy. Other calls pay one `typeof` check.
 */
function watchRelativeFetches(explain: (url: string, how: 'relative') => void): void {
  const real = globalThis.fetch as typeof fetch & { [WRAPPED]?: true }
  if (typeof real !== 'function' || real[WRAPPED]) return
  const wrapper = function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (typeof input === 'string' && input.startsWith('/') && !input.startsWith('//')) {
      try {
        explain(input, 'relative')
      } catch {
        // Only a hint.
      }
    }
    return real(input, init)
  }
  Object.defineProperty(wrapper, WRAPPED, { value: true })
  globalThis.fetch = wrapper
}

/**
 * The Nitro plugin: on each request of Nitro's app that came from inside the process and whose
 * path a route claims, the hint; and the same for a plain `fetch('/api/…')` in the worker, which
 * Node rejects (see `watchRelativeFetches`). Why that means a missed call: in `nuxt dev` the proxy answers
 * every request a route claims before Nitro, so such a request can only be server-side code's
 * (`$fetch('/api/x')` in `useAsyncData` during SSR, or in a `server/api` handler). The request
 * itself is left alone, Nitro answers it as before; a request from the network costs one
 * `instanceof`, and nothing here throws into Nitro's request hook.
 *
 * @example
 * export default missedFetchPlugin(routes, console.warn) // a Nitro plugin file
 */
export function missedFetchPlugin(
  routes: readonly MissedFetchRoute[],
  warn: (line: string) => void,
): (nitroApp: NitroAppLike) => void {
  const explain = createMissedFetchHint(routes, warn)
  return function corsDevProxyMissedFetch(nitroApp) {
    if (routes.length === 0) return
    watchRelativeFetches(explain)
    nitroApp.hooks.hook('request', function explainIfMissed(event) {
      try {
        if (!isInProcess(event)) return
        const url = event.path ?? event.node?.req?.url
        if (typeof url === 'string') explain(url)
      } catch {
        // Only a hint: whatever went wrong here must not turn the request into an error.
      }
    })
  }
}
