/**
 * Browser-side JSONP: loads a URL with a `<script>` element, which the same-origin policy
 * does not restrict (only reads by fetch and XMLHttpRequest are), and resolves with what the script passes to its callback.
 * Browser-only: no Node imports, no bundler needed (the build emits plain ESM).
 */

/**
 * Options of {@link jsonp}.
 *
 * @example
 * await jsonp('http://localhost:3000/users', { param: 'cb', timeout: 5000 })
 */
export interface JsonpOptions {
  /**
   * Name of the query parameter carrying the callback's name.
   * @default 'callback'
   */
  param?: string
  /**
   * Milliseconds before rejecting with `timed out`; `0` waits forever.
   * @default 10000
   */
  timeout?: number
  /**
   * Aborts the call: the promise rejects with the signal's reason and everything is cleaned up.
   * @default none
   */
  signal?: AbortSignal
}

/** Per-module-instance prefix, so two copies of this module on one page never share names. */
const PREFIX = `__corsDevProxyJsonp_${Math.random().toString(36).slice(2, 10)}_`
let counter = 0

/**
 * Appends `param=name` to the URL's query: with `?` when there is none yet, `&` otherwise
 * (nothing extra after a trailing `?` or `&`), and before any `#fragment`.
 *
 * @example
 * withCallbackParam('/users?page=2#top', 'callback', 'cb1') // '/users?page=2&callback=cb1#top'
 */
export function withCallbackParam(url: string, param: string, name: string): string {
  const hash = url.indexOf('#')
  const base = hash === -1 ? url : url.slice(0, hash)
  const fragment = hash === -1 ? '' : url.slice(hash)
  const question = base.indexOf('?')
  const separator = question === -1 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${separator}${encodeURIComponent(param)}=${encodeURIComponent(name)}${fragment}`
}

/**
 * Calls a JSONP endpoint and resolves with the value the answer passes to the callback.
 *
 * Each call gets its own global callback name; the `<script>` element and the global are
 * removed when the call settles, whichever way. Rejects with `Error('request failed')` when
 * the script fails to load, or loads without calling back (not a JSONP answer); with
 * `Error('timed out')` after `timeout` ms (`0` disables the timer, which fetch-jsonp cannot);
 * with `signal.reason` when aborted. A late answer after settling is harmless: the server's
 * `typeof cb === 'function'` guard skips the removed callback.
 *
 * @example
 * const users = await jsonp<User[]>('http://localhost:3000/users?active=1')
 */
export function jsonp<T = unknown>(url: string, options: JsonpOptions = {}): Promise<T> {
  // The only defaults written outside config/defaults.ts: this file runs in the browser and
  // imports nothing (a test checks it), and these are the browser helper's alone.
  const { param = 'callback', timeout = 10_000, signal } = options
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const name = `${PREFIX}${counter++}`
    const scope = globalThis as unknown as Record<string, unknown>
    const script = document.createElement('script')
    let timer: ReturnType<typeof setTimeout> | undefined
    let settled = false

    const onAbort = (): void => finish(() => reject(signal?.reason))
    function finish(settle: () => void): void {
      if (settled) return
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      script.onload = null
      script.onerror = null
      script.remove()
      delete scope[name]
      settle()
    }

    scope[name] = (value: T) => finish(() => resolve(value))
    // A script's callback runs while it executes, before `load` fires: a load without a
    // call means the answer was not JSONP.
    script.onload = () => finish(() => reject(new Error('request failed')))
    script.onerror = () => finish(() => reject(new Error('request failed')))
    signal?.addEventListener('abort', onAbort, { once: true })
    if (timeout > 0) timer = setTimeout(() => finish(() => reject(new Error('timed out'))), timeout)
    script.async = true
    script.src = withCallbackParam(url, param, name)
    ;(document.head ?? document.documentElement).appendChild(script)
  })
}
