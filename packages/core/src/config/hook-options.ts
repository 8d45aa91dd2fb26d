/*
 * The per-request options, with the names and meanings of http-proxy-middleware (`on`, `router`,
 * `pathFilter`, its response interceptor) and Vite's `server.proxy` (`configure`, `bypass`), so a
 * config moves over by copy. Requests go upstream through undici, not `http.ClientRequest`, so
 * the objects handed to hooks offer the subset of methods hooks call, listed on each type.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { TargetObject } from './validate-target.js'

/**
 * The outgoing request as `on.proxyReq` sees it, after `router` and `pathRewrite`: what
 * http-proxy-middleware's `proxyReq` snippets call. Header names are case-insensitive.
 */
export interface OutgoingProxyRequest {
  /** The method sent upstream. */
  readonly method: string
  /** The upstream path with its query (the target's base path included); settable. */
  path: string
  /** The target this request goes to (after `router`). */
  readonly target: URL
  getHeader(name: string): string | string[] | undefined
  setHeader(name: string, value: string | number | readonly string[]): void
  removeHeader(name: string): void
  hasHeader(name: string): boolean
  /** The headers, names lowercased. */
  getHeaders(): Record<string, string | string[]>
  /**
   * Writes body bytes, as on http-proxy's `proxyReq`: http-proxy-middleware's `fixRequestBody`
   * pattern (`proxyReq.setHeader('content-length', ...); proxyReq.write(body)`). What hooks
   * write replaces a body a parser already read; on a body not read yet it goes first, then the
   * client's stream, as http-proxy sends them. `Content-Length` is made to match what is sent.
   */
  write(chunk: string | Uint8Array, encoding?: BufferEncoding): boolean
  /** Writes a last chunk, if given (the request is sent when the hooks are done either way). */
  end(chunk?: string | Uint8Array, encoding?: BufferEncoding): void
  /**
   * Ends the exchange, as `ClientRequest.destroy(error)` does in http-proxy-middleware (its
   * `fixRequestBody` calls it on a multipart field holding CR/LF): nothing is sent to the
   * target, the later hooks do not run, and the client gets 400 when the error blames the
   * request (hpm's `HPM_ERR_INVALID_*` codes, a 4xx `status` or `statusCode`), else 502, with
   * the error's message in the body. Called after the hooks are done, it changes nothing.
   */
  destroy(error?: Error): this
}

/**
 * The target's answer as `on.proxyRes` sees it, before anything is sent to the browser: change
 * `statusCode` or `headers` (names lowercased) and the browser gets the change.
 */
export interface IncomingProxyResponse {
  statusCode: number
  headers: IncomingHttpHeaders
}

/**
 * The hooks of a route (`on`), http-proxy-middleware's names and arguments. Each may be async
 * and is awaited; a hook that throws answers the request 502 naming the hook.
 */
export interface ProxyHooks {
  /** The outgoing request, before it is sent: set or remove headers, change the path. */
  proxyReq?: (proxyReq: OutgoingProxyRequest, req: ProxyRequest, res: ProxyResponse) => unknown
  /** The target's answer, before it is relayed: change its status or headers. */
  proxyRes?: (proxyRes: IncomingProxyResponse, req: ProxyRequest, res: ProxyResponse) => unknown
  /**
   * A request that could not be forwarded (target down, timeout...). Runs before the 502/504
   * answer; when the hook answers itself (headers sent or response ended), ours is skipped.
   * For a WebSocket upgrade, the third argument is the client's socket.
   */
  error?: (error: Error, req: ProxyRequest, res: ProxyResponse | Duplex) => unknown
  /** The outgoing WebSocket handshake, before it is sent. */
  proxyReqWs?: (proxyReq: OutgoingProxyRequest, req: IncomingMessage, socket: Duplex, head: Buffer) => unknown
}

/** The name of a hook. */
export type ProxyHookName = keyof ProxyHooks

/**
 * What Vite's `configure(proxy, options)` receives: register hooks with `proxy.on(event, fn)`,
 * the events and arguments of {@link ProxyHooks}.
 */
export interface ConfigurableProxy {
  on<E extends ProxyHookName>(event: E, listener: NonNullable<ProxyHooks[E]>): ConfigurableProxy
  once<E extends ProxyHookName>(event: E, listener: NonNullable<ProxyHooks[E]>): ConfigurableProxy
  off<E extends ProxyHookName>(event: E, listener: NonNullable<ProxyHooks[E]>): ConfigurableProxy
}

/**
 * The request's own copy of the route's options, as written, that a `router` function gets as
 * its third argument (and a `pathRewrite` function after it as its fourth), like
 * http-proxy-middleware 4's per-request options: assigning `target`, or changing `headers`,
 * there applies to that request only.
 */
export interface RequestOptions {
  /** The route's target as written; a router that answers nothing but assigns here chose it. */
  target?: unknown
  /** The route's fixed upstream headers as written, a copy of their own. */
  headers: Record<string, unknown>
  /** The route's other options, as written (changing them has no effect). */
  [option: string]: unknown
}

/** What a router may answer: a URL (string or `URL`), http-proxy's target object, or nothing for the route's target. */
export type RouterAnswer = string | URL | TargetObject | undefined | null

/**
 * A target per request: a function (sync or async; `undefined` keeps the route's target) called
 * with http-proxy-middleware 4's arguments `(req, res, options)` (`res` is `undefined` for a
 * WebSocket upgrade, `options` the request's own copy of the route as written, see
 * {@link RequestOptions}: a `target` assigned or `headers` changed there apply to that request
 * only), or an object whose keys are a host (`'api.localhost:5173'`), a path (`'/v2'`,
 * segment-safe) or both (`'api.localhost:5173/v2'`), tried in order. Targets may be URL strings
 * or target objects (`{ protocol, host, port }`).
 */
export type Router =
  | ((
      req: ProxyRequest,
      res: ProxyResponse | undefined,
      // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, copied per request; users assign to it freely.
      options: any,
      // biome-ignore lint/suspicious/noConfusingVoidType: a router that only assigns `options.target` returns nothing (`(req, res, options) => { ... }`).
    ) => RouterAnswer | void | Promise<RouterAnswer | void>)
  | Record<string, string | TargetObject>

/**
 * Which requests of the route's prefix it takes (http-proxy-middleware's `pathFilter`): a
 * function of the path (without the query) and the request, a path prefix, or a list of them.
 * A request it declines goes on to the dev server.
 */
export type PathFilter = string | readonly string[] | ((path: string, req: ProxyRequest) => boolean)

/**
 * Vite's `bypass(req, res, options)`: a string serves that path instead (the request goes on to
 * the dev server with `req.url` set to it), `false` answers 404, nothing proxies. For a
 * WebSocket upgrade `res` is `undefined`. May be async.
 */
export type Bypass = (
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
  options: any,
  // biome-ignore lint/suspicious/noConfusingVoidType: a bypass that returns nothing (`(req) => { ... }`) proxies; `undefined` would reject it.
) => string | false | null | undefined | void | Promise<string | false | null | undefined | void>

/**
 * http-proxy-middleware's `responseInterceptor`: gets the target's whole answer (decompressed)
 * and returns the new body: a Buffer or string as it is, anything else as JSON. May be async.
 */
export type TransformResponse = (
  body: Buffer,
  proxyRes: IncomingProxyResponse,
  req: ProxyRequest,
  res: ProxyResponse,
) => unknown
