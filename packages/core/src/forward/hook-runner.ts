import type { OutgoingProxyRequest } from '../config/hook-options.js'
import type { HookEntry } from '../config/resolve-hooks.js'
import type { UpstreamHeaders } from './request-headers.js'

/** A hook that threw or rejected: the request is answered 502 naming it. */
export class HookFailure extends Error {
  /** The option the hook came from, e.g. `routes['/api'].on.proxyReq`. */
  readonly hook: string
  constructor(hook: string, cause: unknown) {
    super(`${hook} threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'HookFailure'
    this.hook = hook
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
  }
}
