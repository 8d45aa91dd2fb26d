import type { Logger } from './logger.js'

/** A proxy that wants to hear of server-side fetches of its paths. */
interface Listener {
  /** Whether a route claims the path. */
  readonly claims: (req: { readonly url: string }) => boolean
  readonly logger: Logger
  /** The framework's own way to make the call, given its path, named beside `serverFetch`. */
  readonly alternative?: ((path: string) => string) | undefined
}

const listeners = new Set<Listener>()
/** Prefixes already explained, per logger: one line per route, not one per request. */
const explained = new WeakMap<Logger, Set<string>>()
let original: typeof fetch | undefined
let wrapper: typeof fetch | undefined

/** The path of a relative URL `fetch` was given (`/api/items?x`), or `undefined`. */
function relativePath(input: unknown): string | undefined {
  return typeof input === 'string' && input.startsWith('/') && !input.startsWith('//') ? input : undefined
}

function explain(path: string): void {
  for (const { claims, logger, alternative } of listeners) {
    if (!claims({ url: path })) continue
    const seen = explained.get(logger) ?? new Set<string>()
    explained.set(logger, seen)
    const key = path.split(/[?#]/, 1)[0] ?? path
    if (seen.has(key)) continue
    seen.add(key)
    logger.warn(
      `fetch('${path}') ran on the server (SSR, a loader, an API handler): there is no page origin there, so Node's ` +
        `fetch fails ("Failed to parse URL") and the call never reaches the proxy. Use serverFetch('${path}') from ` +
        `'@cors-dev-proxy/core' in server-side code${alternative === undefined ? '' : ` (${alternative(path)} works too)`}.`,
    )
  }
}

/**
 * Listens for server-side `fetch` calls that miss the proxy: in the dev server's process, a
 * `fetch('/api/items')` from SSR code (Astro pages, React Router loaders, Vite middleware-mode
 * servers) has no origin to resolve against and throws an error that says nothing about the
 * proxy. While a proxy listens, `globalThis.fetch` is wrapped: a relative URL that a route claims
 * is explained once per path in the proxy's log, then the call goes to the real `fetch`
 * unchanged (it still fails the way it did: what the call does is not ours to change). Other
 * calls pay one `typeof` check. The wrapper is removed when the last listener goes, unless
 * someone wrapped `fetch` again on top of it.
 *
 * Returns the function that stops listening.
 *
 * @example
 * const stop = watchServerFetches({ claims: proxy.claims, logger: proxy.logger })
 * server.once('close', stop)
 */
export function watchServerFetches(listener: Listener): () => void {
  listeners.add(listener)
  if (original === undefined && typeof globalThis.fetch === 'function') {
    const real = globalThis.fetch
    original = real
    globalThis.fetch = function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      const path = relativePath(input)
      if (path !== undefined) explain(path)
      return real(input, init)
    }
    wrapper = globalThis.fetch
  }
  return function stopWatchingServerFetches(): void {
    listeners.delete(listener)
    if (listeners.size > 0 || original === undefined) return
    if (globalThis.fetch === wrapper) globalThis.fetch = original
    original = undefined
    wrapper = undefined
  }
}
