type Fetch = typeof fetch

/** Whether `input` is a path-only URL (`/api/items`), which Node's `fetch` cannot resolve. */
function isRelativePath(input: unknown): input is string {
  return typeof input === 'string' && input.startsWith('/') && !input.startsWith('//')
}

/** Next's own `fetch` (its data cache), which marks itself `__nextPatched`. */
function isNextFetch(value: unknown): value is Fetch {
  return typeof value === 'function' && (value as { __nextPatched?: unknown }).__nextPatched === true
}

/**
 * Next's fetch, with path-only URLs sent to `watched` first. Both fail on such a URL with the
 * same `TypeError` ("Failed to parse URL from /api/items"); `watched` (the core's hint) says in
 * the log why, and what to call instead. Next's marks (`__nextPatched`, `_nextOriginalFetch`)
 * are copied, so Next still sees its own fetch and does not patch it again.
 */
function hintFirst(nextFetch: Fetch, watched: Fetch): Fetch {
  function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return isRelativePath(input) ? watched(input, init) : nextFetch(input, init)
  }
  return Object.assign(fetch, nextFetch)
}

/**
 * Keeps the proxy's hint about a server-side `fetch('/api/…')` working under Next, and returns
 * what undoes it.
 *
 * Why: the core explains such a call by wrapping `globalThis.fetch` when the proxy starts. Next
 * wraps `globalThis.fetch` again on its first render (its data cache, with request
 * de-duplication), and its wrapper builds a `Request` from the URL, which throws on a path-only
 * URL before the call reaches the wrapper underneath: the hint never showed. So `fetch` becomes
 * an accessor while the proxy runs: when Next assigns its fetch, path-only URLs are routed to the
 * fetch that was there before it (`watched`, the core's hint over Node's fetch); every other call
 * goes to Next's fetch as before.
 *
 * @example
 * const proxy = createDevServerProxy(resolved, { server }) // wraps globalThis.fetch with the hint
 * const undo = keepFetchHintOverNext()
 * server.once('close', undo)
 */
export function keepFetchHintOverNext(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch')
  if (descriptor === undefined || !descriptor.configurable || typeof descriptor.value !== 'function') {
    return () => {}
  }
  const watched = descriptor.value as Fetch
  let current: Fetch = watched
  Object.defineProperty(globalThis, 'fetch', {
    configurable: true,
    enumerable: descriptor.enumerable ?? true,
    get: () => current,
    set(value: Fetch) {
      current = isNextFetch(value) ? hintFirst(value, watched) : value
    },
  })
  return function undoFetchHintOverNext(): void {
    Object.defineProperty(globalThis, 'fetch', { ...descriptor, value: current })
  }
}
