import type { Dispatcher } from 'undici'
import type { ProblemReport } from '../config/path-rewrite.js'
import { joinTargetPath } from '../config/path-rewrite.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Logger } from '../log/logger.js'
import type { RequestNotes } from '../pipeline/request-notes.js'
import type { FailureLog } from './failure-log.js'
import { HookFailure, type OutgoingParts } from './hook-runner.js'
import { describeUpstreamError } from './proxy-error.js'
import type { UpstreamResponse } from './relay-response.js'
import { type RequestBody, requestBodyOf, upstreamBodyOf } from './request-body.js'
import { buildUpstreamHeaders } from './request-headers.js'
import { abortFor, armResponseDeadline, ResponseTimeoutError } from './response-deadline.js'
import { isReplayable, mayRetry } from './retry-policy.js'
import type { UpstreamPool } from './upstream-pool.js'

/**
 * Per-request options of {@link requestUpstream}.
 *
 * @example
 * requestUpstream(req, route, '/api/users', pool, { signal: controller.signal })
 */
export interface RequestUpstreamOptions {
  /**
   * Aborts the upstream request (and its connection) when it fires.
   * @default none
   */
  signal?: AbortSignal
  /**
   * Told when the route's `pathRewrite` function misbehaves (it then forwards the path unchanged).
   * @default ignore
   */
  report?: ProblemReport
  /** The response, for a `pathRewrite` function's third argument. */
  res?: ProxyResponse
  /**
   * The body to send: the client's stream, or what a body parser left (see `requestBodyOf`).
   * @default decided from the request
   */
  body?: RequestBody
  /**
   * Told the upstream path once it is known (after an async `pathRewrite`), for the log.
   * @default ignore
   */
  onPath?: (path: string) => void
  /**
   * The target for this request, when `router` chose one.
   * @default the route's target
   */
  target?: URL | undefined
  /**
   * Told when the request is sent a second time, on a fresh connection, because the target
   * closed the kept-alive one under it (see `mayRetry`).
   * @default ignore
   */
  onRetry?: ((error: unknown) => void) | undefined
  /**
   * Sees (and may change) the outgoing path and headers just before they are sent: where the
   * `proxyReq` hooks run. May return the body to send instead (what the hooks wrote, see
   * `settleHookedBody`).
   * @default none
   */
  prepare?:
    | ((outgoing: OutgoingParts) => RequestBody | undefined | Promise<RequestBody | undefined>)
    | undefined
}

/**
 * The path and headers of the upstream request, before the `proxyReq` hooks: the rewritten path
 * on the target's base path, and the client's headers cleaned (see `buildUpstreamHeaders`).
 *
 * @example
 * outgoingParts(req, route, '/users', { kind: 'none' }) // { path: '/v1/users', headers: { host: 'localhost:3000', ... } }
 */
export function outgoingParts(
  req: ProxyRequest,
  routed: ResolvedForwardRoute,
  rewritten: string,
  body: RequestBody,
): OutgoingParts {
  const headers = buildUpstreamHeaders(req, routed)
  if (body.kind === 'parsed') {
    // The parser's bytes replace the stream: the framing has to describe them.
    delete headers['transfer-encoding']
    headers['content-length'] = String(body.bytes.byteLength)
  }
  return { path: joinTargetPath(routed.target, rewritten), headers }
}

/** What the forwarder needs besides the route. */
export interface ForwardDeps {
  pool: UpstreamPool
  logger: Logger
  /** Upstream failures per target: the first at once, then summaries, then the recovery. */
  failures: FailureLog
  /** Where the forwarder notes each request's upstream URL, for the debug line and the inspector. */
  hops?: RequestNotes<string>
  /** Where the forwarder notes when the upstream's response head arrived (`performance.now()`), for the inspector. */
  heads?: RequestNotes<number>
}

/**
 * Sends the client's request to the route's target (or the one `router` chose) through a
 * keep-alive pool and resolves with the response head; the body streams on (`body`,
 * back-pressured). The request body is streamed too, straight from the client, never buffered,
 * unless a body parser already read it (then what it left is sent, see `requestBodyOf`).
 * Rejects with undici's error (connection refused, a reset...) or a {@link ResponseTimeoutError}
 * when the route's `timeout` runs out before the head (see `armResponseDeadline`), which
 * {@link describeUpstreamError} explains, or with a hook's {@link HookFailure}, or with the
 * reason of `signal`. A request the target's closing kept-alive connection failed before any
 * answer is sent once more on a fresh connection when that is safe (see `mayRetry`).
 *
 * `path` is the matched, normalized path with its query (`matchRoute`'s `path`); the route's
 * `rewritePath` (awaited when it is async) and the target's base path are applied here, then
 * `prepare` (the `proxyReq` hooks) sees the result. Exported so an embedder can read an answer
 * itself before relaying it.
 *
 * @example
 * const upstream = await requestUpstream(req, route, '/api/users?page=2', pool)
 * upstream.statusCode // 200
 */
export function requestUpstream(
  req: ProxyRequest,
  route: ResolvedForwardRoute,
  path: string,
  pool: UpstreamPool,
  options: RequestUpstreamOptions = {},
): Promise<UpstreamResponse> {
  const body = options.body ?? requestBodyOf(req)
  const target = options.target ?? route.target
  const routed = target === route.target ? route : { ...route, target }
  const method = req.method ?? 'GET'
  const dispatch = (parts: OutgoingParts, body: RequestBody): Promise<UpstreamResponse> => {
    options.onPath?.(parts.path)
    const { abort, release } = abortFor(options.signal)
    const request: Dispatcher.RequestOptions = {
      method,
      path: parts.path,
      headers: parts.headers,
      body: upstreamBodyOf(req, body),
      signal: abort.signal,
    }
    const clear = armResponseDeadline(abort, route.timeout, request.body)
    let answer: Promise<UpstreamResponse> = pool.poolFor(routed).request(request)
    if (isReplayable(method, body)) {
      answer = answer.catch((error: unknown) => {
        if (abort.aborted || !mayRetry(method, body, error)) throw error
        options.onRetry?.(error)
        return pool.requestFresh(routed, request)
      })
    }
    return answer.then(
      (upstream) => {
        clear()
        release()
        return upstream
      },
      (error: unknown) => {
        clear()
        release()
        throw error
      },
    )
  }
  const send = (rewritten: string): Promise<UpstreamResponse> => {
    const parts = outgoingParts(req, routed, rewritten, body)
    const prepared = options.prepare?.(parts)
    return prepared instanceof Promise
      ? prepared.then((changed) => dispatch(parts, changed ?? body))
      : dispatch(parts, prepared ?? body)
  }
  try {
    const rewritten = route.rewritePath(path, req, options.report, options.res)
    return typeof rewritten === 'string' ? send(rewritten) : rewritten.then(send)
  } catch (error) {
    // Request time never throws: whatever went wrong is answered like an upstream failure.
    return Promise.reject(error)
  }
}
