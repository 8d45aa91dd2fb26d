import type { OutgoingProxyRequest } from '../config/hook-options.js'
import type { HookEntry } from '../config/resolve-hooks.js'
import type { UpstreamHeaders } from './request-headers.js'

/**
 * Whether an error says the request itself was at fault: http-proxy-middleware's
 * `HPM_ERR_INVALID_*` codes (its `fixRequestBody` refusing a multipart field with CR/LF, which
 * hpm answers 400) or a 4xx `status` / `statusCode`, as http-errors' `createError(400)` sets.
 */
function blamesRequest(cause: unknown): boolean {
  if (cause === null || typeof cause !== 'object') return false
  const { code, status, statusCode } = cause as { code?: unknown; status?: unknown; statusCode?: unknown }
  if (typeof code === 'string' && code.startsWith('HPM_ERR_INVALID')) return true
  const declared = typeof status === 'number' ? status : statusCode
  return typeof declared === 'number' && declared >= 400 && declared < 500
}

/**
 * A hook that threw or rejected, or ended the exchange with `proxyReq.destroy(error)`: the
 * request is answered naming it, nothing is sent to the target.
 */
export class HookFailure extends Error {
  /** The option the hook came from, e.g. `routes['/api'].on.proxyReq`. */
  readonly hook: string
  /** Whether the hook called `proxyReq.destroy()` rather than throwing. */
  readonly destroyed: boolean
  /**
   * 502 (a failure of the user's code, as for a router), or 400 for a destroy whose error blames
   * the request (see `blamesRequest`): http-proxy-middleware's own answer to the same refusal.
   */
  readonly status: 400 | 502
  constructor(hook: string, cause: unknown, destroyed = false) {
    const message = cause instanceof Error ? cause.message : String(cause)
    super(`${hook} ${destroyed ? 'destroyed the request' : 'threw'}: ${message}`, { cause })
    this.name = 'HookFailure'
    this.hook = hook
    this.destroyed = destroyed
    this.status = destroyed && blamesRequest(cause) ? 400 : 502
  }
}

/**
 * Runs hooks one after the other, awaiting each (they may be async, as in
 * http-proxy-middleware), and turns a throw into a {@link HookFailure} naming the hook. Callers
 * skip the call entirely when there is no hook, so routes without hooks pay nothing.
 *
 * @example
 * await runHooks(route.hooks.proxyReq, [outgoing, req, res])
 */
export async function runHooks<A extends unknown[]>(
  entries: readonly HookEntry<(...args: A) => unknown>[],
  args: A,
): Promise<void> {
  await runHooksSyncFirst(entries, args)
}

/**
 * Runs hooks as {@link runHooks} does, without a promise while they are synchronous: returns
 * `undefined` when every hook returned something other than a promise, or the promise of the
 * rest once one did (awaited, then the others in order). A throw becomes a {@link HookFailure},
 * thrown at once by a synchronous hook, rejected by the promise after an async one. For the
 * per-answer `proxyRes` hooks, which most often only read or set a header.
 *
 * @example
 * const pending = runHooksSyncFirst(route.hooks.proxyRes, [proxyRes, req, res])
 * if (pending !== undefined) await pending
 */
export function runHooksSyncFirst<A extends unknown[]>(
  entries: readonly HookEntry<(...args: A) => unknown>[],
  args: A,
): Promise<void> | undefined {
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as HookEntry<(...args: A) => unknown>
    let result: unknown
    try {
      result = entry.fn(...args)
    } catch (error) {
      throw new HookFailure(entry.name, error)
    }
    if (result !== null && typeof (result as { then?: unknown })?.then === 'function') {
      const rest = entries.slice(index + 1)
      return Promise.resolve(result).then(
        () => runHooksSyncFirst(rest, args),
        (error: unknown) => {
          throw new HookFailure(entry.name, error)
        },
      )
    }
  }
  return undefined
}

/** The outgoing request's parts a hook may change. */
export interface OutgoingParts {
  path: string
  readonly headers: UpstreamHeaders
  /** What `proxyReq` hooks wrote with `proxyReq.write()` / `end()`, in order. */
  written?: Buffer[]
  /** Set by `proxyReq.destroy(error)`: the request is not sent. */
  destroyed?: { readonly error: unknown }
}

/**
 * Runs the hooks of an outgoing request (`proxyReq`, `proxyReqWs`) as {@link runHooks} does,
 * and stops after the first one that called `proxyReq.destroy()`, throwing a
 * {@link HookFailure} naming it (`destroyed` set): the later hooks would only prepare a request
 * that is not sent.
 *
 * @example
 * await runRequestHooks(route.hooks.proxyReq, [outgoingRequest(method, target, parts), req, res], parts)
 */
export async function runRequestHooks<A extends unknown[]>(
  entries: readonly HookEntry<(...args: A) => unknown>[],
  args: A,
  parts: OutgoingParts,
): Promise<void> {
  for (const entry of entries) {
    const pending = runHooksSyncFirst([entry], args)
    if (pending !== undefined) await pending
    if (parts.destroyed !== undefined) throw new HookFailure(entry.name, parts.destroyed.error, true)
  }
}

function headerValue(value: string | number | readonly string[]): string | string[] {
  return Array.isArray(value) ? value.map(String) : String(value)
}

/**
 * The outgoing request as hooks see it (`on.proxyReq`, `on.proxyReqWs`): a view over the
 * upstream path and headers that are about to be sent, with the methods of
 * `http.ClientRequest` that http-proxy-middleware snippets call. Header names are lowercased,
 * as undici sends them.
 *
 * @example
 * outgoingRequest('GET', target, parts).setHeader('X-Token', 'dev')
 */
export function outgoingRequest(method: string, target: URL, parts: OutgoingParts): OutgoingProxyRequest {
  const { headers } = parts
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding): boolean => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk)
    parts.written ??= []
    parts.written.push(bytes)
    return true
  }
  return {
    method,
    target,
    get path() {
      return parts.path
    },
    set path(value: string) {
      parts.path = String(value)
    },
    getHeader: (name) => headers[name.toLowerCase()],
    setHeader(name, value) {
      headers[name.toLowerCase()] = headerValue(value)
    },
    removeHeader(name) {
      delete headers[name.toLowerCase()]
    },
    hasHeader: (name) => headers[name.toLowerCase()] !== undefined,
    getHeaders: () => ({ ...headers }),
    write,
    end(chunk, encoding) {
      if (chunk !== undefined && typeof chunk !== 'function') write(chunk, encoding)
    },
    destroy(error) {
      // The first destroy wins, as on a ClientRequest; calling it is never an error itself.
      parts.destroyed ??= { error: error ?? new Error('proxyReq.destroy() was called') }
      return this
    },
  }
}
