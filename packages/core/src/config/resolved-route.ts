import type { CorsOptions } from './cors-options.js'
import type { MockBackendOptions } from './mock-options.js'
import type { CookieRewrite, LogLevel, LogSink } from './options.js'
import type { PathRewriter } from './path-rewrite.js'

/**
 * A route after validation, with every default filled in and every matcher precomputed.
 * Built once by `resolveOptions`; never rebuilt per request.
 */
export interface ResolvedRoute {
  /** Normalized prefix: starts with `/`, no trailing `/` (except the root route `/`). */
  readonly prefix: string
  /** The target; `undefined` when the route answers from the mock backend. */
  readonly target: URL | undefined
  readonly changeOrigin: boolean
  readonly xfwd: boolean
  readonly ws: boolean
  readonly secure: boolean
  /** Milliseconds to wait for response headers. */
  readonly timeout: number
  /** Fixed extra upstream headers, names lowercased. */
  readonly headers: ReadonlyArray<readonly [name: string, value: string]>
  /** Maps the matched request path (with query, dot-segments resolved) to the upstream path (with query), target base path not yet joined. */
  readonly rewritePath: PathRewriter
  readonly cookieDomainRewrite: CookieRewrite
  readonly cookiePathRewrite: CookieRewrite
  /** CORS policy of the route, or `undefined` when preflights are forwarded untouched. */
  readonly cors: CorsOptions | undefined
  /** Mock backend options when the route answers locally. */
  readonly mock: MockBackendOptions | undefined
  /** JSONP wrapping of GET answers, with the callback parameter's name. */
  readonly jsonp: { readonly param: string } | undefined
}

/** Everything `createCorsDevProxy` works from, resolved once. */
export interface ResolvedCorsDevProxyOptions {
  /** Routes sorted longest prefix first, so the first match is the longest. */
  readonly routes: readonly ResolvedRoute[]
  readonly log: LogLevel
  readonly logger: LogSink
}
