import type { ProblemReport } from '../config/path-rewrite.js'
import { joinTargetPath } from '../config/path-rewrite.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import type { Logger } from '../log/logger.js'
import { ClientAbort } from './client-abort.js'
import type { FailureLog } from './failure-log.js'
import { BODY_FIX, createForwardHints } from './forward-hints.js'
import { createLocationRewrite } from './location-rewrite.js'
import { describeUpstreamError, sendUpstreamFailure, targetLabel } from './proxy-error.js'
import { discard, sendUpstreamResponse, type UpstreamResponse } from './relay-response.js'
import { type RequestBody, requestBodyOf } from './request-body.js'
import { buildUpstreamHeaders } from './request-headers.js'
import { abortResponse, isResponseClosed } from './response-state.js'
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
}

/** What the forwarder needs besides the route. */
export interface ForwardDeps {
  pool: UpstreamPool
  logger: Logger
  /** Upstream failures per target: the first at once, then summaries, then the recovery. */
  failures: FailureLog
  /** Where the forwarder notes each request's upstream URL, for the debug line. */
  hops?: WeakMap<object, string>
}

/**
 * Sends the client's request to the route's target through the route's keep-alive pool and
 * resolves with the response head; the body streams on (`body`, back-pressured). The request
 * body is streamed too, straight from the client, never buffered, unless a body parser already
 * read it (then what it left is sent, see `requestBodyOf`). Rejects with undici's error
 * (connection refused, headers timeout...), which {@link describeUpstreamError} explains.
 *
 * `path` is the matched, normalized path with its query (`matchRoute`'s `path`); the route's
 * `rewritePath` (awaited when it is async) and the target's base path are applied here.
 * Exported so an embedder can read an answer itself before relaying it.
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
  const send = (rewritten: string): Promise<UpstreamResponse> => {
    const upstreamPath = joinTargetPath(route.target, rewritten)
    options.onPath?.(upstreamPath)
    const headers = buildUpstreamHeaders(req, route)
    if (body.kind === 'parsed') {
      // The parser's bytes replace the stream: the framing has to describe them.
      delete headers['transfer-encoding']
      headers['content-length'] = String(body.bytes.byteLength)
    }
    return pool.poolFor(route).request({
      method: req.method ?? 'GET',
      path: upstreamPath,
      headers,
      body: body.kind === 'stream' ? req : body.kind === 'parsed' ? body.bytes : null,
      signal: options.signal,
      headersTimeout: route.timeout,
      bodyTimeout: 0,
    })
  }
  try {
    const rewritten = route.rewritePath(path, req, options.report)
    return typeof rewritten === 'string' ? send(rewritten) : rewritten.then(send)
  } catch (error) {
    // Request time never throws: whatever went wrong is answered like an upstream failure.
    return Promise.reject(error)
  }
}

/** The step that forwards one route's requests (see {@link createForwarder}). */
export type Forwarder = (req: ProxyRequest, res: ProxyResponse, path: string) => void

/**
 * Builds the forwarding step of a route once: sends each request upstream and relays the
 * answer, answering failures with 502/504 and a short body (see `sendUpstreamFailure`), never
 * throwing. A client that goes away before the answer arrives aborts the upstream request
 * through a `ClientAbort`, so a closed tab does not leave work running on the target. Along the
 * way it explains what a developer would otherwise puzzle over, once per route: a 404 for a path
 * whose prefix was removed, a 403 to a request whose `Origin` went up unchanged, a redirect it
 * cannot point back, a body a parser had already read.
 *
 * @example
 * const forward = createForwarder(route, { pool, logger, failures })
 * forward(req, res, '/api/users')
 */
export function createForwarder(route: ResolvedForwardRoute, deps: ForwardDeps): Forwarder {
  const { logger, failures, hops } = deps
  const label = targetLabel(route.target)
  const location = createLocationRewrite(route)
  const rewriteLocation = location.kind === 'rewrite' ? location.rewrite : undefined
  const hints = createForwardHints(route, location, logger)

  return function forward(req, res, path) {
    const body = requestBodyOf(req)
    if (body.kind === 'lost') {
      hints.bodyLost(req, body.cause)
      sendText(res, 500, 'text/plain; charset=utf-8', `cors-dev-proxy: ${body.cause}. ${BODY_FIX}\n`)
      return
    }
    const abort = new ClientAbort()
    res.once('close', () => {
      if (!res.writableEnded) abort.abort()
    })
    let upstreamPath = path
    requestUpstream(req, route, path, deps.pool, {
      signal: abort.signal,
      report: logger.warn,
      body,
      onPath(rewritten) {
        upstreamPath = rewritten
        hops?.set(req, `${label}${rewritten}`)
      },
    })
      .then(
        (upstream) => {
          failures.answered(label)
          if (abort.aborted) {
            discard(upstream.body)
            return
          }
          hints.answered(req, upstream, path, upstreamPath)
          sendUpstreamResponse(req, res, upstream, route, logger, { rewriteLocation })
        },
        (error: unknown) => {
          if (abort.aborted || isResponseClosed(res)) {
            logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
            return
          }
          const failure = describeUpstreamError(error, {
            label,
            target: route.target,
            timeout: route.timeout,
          })
          failures.failed(failure, label, req)
          sendUpstreamFailure(req, res, failure, label)
        },
      )
      .catch((error: unknown) => {
        // Nothing above should throw; if something does, the client gets a broken response, not a hang.
        logger.error(`${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`)
        abortResponse(res)
      })
  }
}
