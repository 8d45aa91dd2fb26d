import type { ProxyRequest, ProxyResponse } from './proxy-types.js'

// A route's path rewrite as it runs on each request, and the join of its result with the
// target's base path. Which rewrite a route gets, and the check of its rules, is resolved
// once in config/resolve-path-rewrite.ts; this file is what runs per request, in every
// layer that sends a request on (forward/, the mock backend, the Fetch WebSocket bridge).

/** A `pathRewrite` function as written: `(path, req, res, options)`, as http-proxy-middleware 4 calls it. */
export type PathRewriteFunction = (
  path: string,
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  options: unknown,
) => unknown

/**
 * Maps a matched request path (with its query) to the upstream path (with its query). Throws,
 * or rejects with, a {@link PathRewriteFailure} when a `pathRewrite` function fails.
 */
export type PathRewriter = (
  pathAndQuery: string,
  req: ProxyRequest,
  report?: ProblemReport,
  /** The response, handed to a `pathRewrite` function; `undefined` for a WebSocket upgrade. */
  res?: ProxyResponse,
  /**
   * A `pathRewrite` function's fourth argument: the request's copy of the route's options on a
   * route with a `router` (the one the router got), else the route as written.
   */
  options?: unknown,
) => string | Promise<string>

/**
 * Told (with a de-duplication key) when a `pathRewrite` function returns something that is not
 * a path; the rewriter then forwards the path unchanged, as http-proxy-middleware does. The
 * caller passes its logger's `warn` per call, so resolving options needs no logger.
 */
export type ProblemReport = (message: string, key: string) => void

/**
 * A `pathRewrite` function that threw or rejected. The request is answered 502 naming the
 * option, and nothing is sent: forwarding the path unchanged would send the target a path the
 * function was written to keep from it.
 */
export class PathRewriteFailure extends Error {
  /** The option, e.g. `routes['/api'].pathRewrite`. */
  readonly option: string
  constructor(option: string, cause: unknown) {
    super(`${option} threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'PathRewriteFailure'
    this.option = option
  }
}

/**
 * Makes a path that came out of user code safe to send upstream: an origin-form request
 * target must start with `/` (RFC 9112 section 3.2.1), so `''` becomes `/`, `?q` becomes
 * `/?q` and `users` becomes `/users`. The result is only ever a path on the configured
 * target: the engine joins it with the target, so it cannot pick another host.
 */
function ensureLeadingSlash(path: string): string {
  return path.charCodeAt(0) === 0x2f || isEmptyRemainder(path) ? path : `/${path}`
}

/**
 * Whether a rewritten path is empty (`''`, or only a query `?q`): the request addressed the
 * route's prefix itself. It is left empty so that {@link joinTargetPath} sends the target's own
 * path as written (`/live` to `ws://h/ws` is `/ws`, not `/ws/`), as http-proxy and nginx do.
 */
function isEmptyRemainder(path: string): boolean {
  return path === '' || path.charCodeAt(0) === 0x3f
}

/**
 * The default rewrite: the prefix is removed (`/api/users?x=1` → `/users?x=1`, `/api` → `''`);
 * with `/`, the path is kept (`pathRewrite: false`).
 *
 * @example
 * removePrefix('/api')('/api/users?x=1', req) // '/users?x=1'
 */
export function removePrefix(prefix: string): PathRewriter {
  if (prefix === '/')
    return function keepPath(path) {
      return path
    }
  const length = prefix.length
  return function removePrefixFromPath(path) {
    // The matcher guarantees the path starts with the prefix on a segment boundary.
    return ensureLeadingSlash(path.slice(length))
  }
}

/**
 * http-proxy-middleware 3 semantics (`path-rewriter.ts`): rules are tried in insertion order
 * against the original path; the first one whose RegExp matches replaces its first match
 * and stops. A path no rule matches is forwarded unchanged (prefix included), and so is
 * every path when there is no rule.
 *
 * @example
 * rewriteByRules([[/^\/api\/v1/, '/v2']])('/api/v1/users', req) // '/v2/users'
 */
export function rewriteByRules(compiled: ReadonlyArray<readonly [RegExp, string]>): PathRewriter {
  return function rewriteByRules(path) {
    for (const [regex, replacement] of compiled) {
      if (regex.test(path)) return ensureLeadingSlash(path.replace(regex, replacement))
    }
    return path
  }
}

/**
 * A user function, called with the full matched path (prefix included, as in
 * http-proxy-middleware and Vite's `rewrite`), sync or async (a returned promise is awaited,
 * as http-proxy-middleware awaits it). A string not starting with `/` gets one (see
 * `ensureLeadingSlash`); anything else that is not a string (`undefined`...) keeps the path
 * unchanged, as http-proxy-middleware does, and is reported through the caller's `report`. A
 * throw or a rejection becomes a {@link PathRewriteFailure} (a 502 naming it, as for a router).
 * `source` is the route as written, the fourth argument when the caller passes no options.
 *
 * @example
 * rewriteByFunction((path) => path.replace('/api', ''), "routes['/api'].pathRewrite", route)('/api/x', req) // '/x'
 */
export function rewriteByFunction(
  rewrite: PathRewriteFunction,
  option: string,
  source: unknown,
): PathRewriter {
  const settle = (path: string, result: unknown, onProblem: ProblemReport): string => {
    if (typeof result === 'string') return ensureLeadingSlash(result)
    onProblem(
      `${option} returned ${result === null ? 'null' : typeof result} instead of a path; forwarding ${path} unchanged`,
      `${option} returned`,
    )
    return path
  }
  return function rewriteByFunction(path, req, onProblem = ignore, res, options = source) {
    let result: unknown
    try {
      // http-proxy-middleware 4's arguments (`path-rewriter.ts`: `(path, req, res, options)`);
      // version 3 passed `(path, req)`.
      result = rewrite(path, req, res, options)
    } catch (error) {
      throw new PathRewriteFailure(option, error)
    }
    // Only a promise costs a tick: synchronous rewrites stay synchronous on the hot path.
    if (result instanceof Promise || (typeof result === 'object' && result !== null && 'then' in result)) {
      return Promise.resolve(result).then(
        (value) => settle(path, value, onProblem),
        (error: unknown) => {
          throw new PathRewriteFailure(option, error)
        },
      )
    }
    return settle(path, result, onProblem)
  }
}

function ignore(): void {}

/**
 * Joins the target's base path with the rewritten path, the way http-proxy joins them but
 * without its double slashes: `http://h:3000/v1` or `http://h:3000/v1/` with `/users?x=1`
 * → `/v1/users?x=1`; with `/` → `/v1/`; with an empty path (the prefix itself was requested)
 * the target's path as written, `/v1` (and `/` for a target without a path). The query is kept
 * verbatim. A result starting with
 * `//` is collapsed to one `/`, because anything resolving it as a URL reference
 * (`new URL(path, base)`) would read the next segment as a host name.
 *
 * @example
 * joinTargetPath(new URL('http://localhost:3000/v1'), '/users?x=1') // '/v1/users?x=1'
 */
export function joinTargetPath(target: URL, upstreamPath: string): string {
  // Read once: each read of a URL's `pathname` is a call into the URL parser's record, per request.
  const pathname = target.pathname
  // The prefix itself: the target's path as written, trailing slash or not.
  if (isEmptyRemainder(upstreamPath)) return pathname + upstreamPath
  const base = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
  const joined = base + ensureLeadingSlash(upstreamPath)
  return joined.startsWith('//') ? joined.replace(/^\/+/, '/') : joined
}
