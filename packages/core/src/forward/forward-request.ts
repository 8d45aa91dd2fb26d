import type { Dispatcher } from 'undici'
import { routeOption } from '../config/option-path.js'
import type { ProblemReport } from '../config/path-rewrite.js'
import { joinTargetPath } from '../config/path-rewrite.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import type { Logger } from '../log/logger.js'
import { ClientAbort } from './client-abort.js'
import type { FailureLog } from './failure-log.js'
import { BODY_FIX, createForwardHints } from './forward-hints.js'
import { HookFailure, type OutgoingParts, outgoingRequest, runHooks } from './hook-runner.js'
import { createLocationRewrite } from './location-rewrite.js'
import {
  describeUpstreamError,
  errorCode,
  sendUpstreamFailure,
  targetLabel,
  type UpstreamFailure,
} from './proxy-error.js'
import { discard, sendUpstreamResponse, type UpstreamResponse } from './relay-response.js'
import { type RequestBody, requestBodyOf } from './request-body.js'
import { buildUpstreamHeaders } from './request-headers.js'
import { abortFor, armResponseDeadline, ResponseTimeoutError } from './response-deadline.js'
import { abortResponse, isResponseClosed } from './response-state.js'
import { isReplayable, mayRetry } from './retry-policy.js'
import {
  isTransformable,
  MAX_TRANSFORM_BYTES,
  type TransformOutcome,
  transformAnswer,
} from './transform-answer.js'
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
   * `proxyReq` hooks run.
   * @default none
   */
  prepare?: ((outgoing: OutgoingParts) => void | Promise<void>) | undefined
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
  const dispatch = (parts: OutgoingParts): Promise<UpstreamResponse> => {
    options.onPath?.(parts.path)
    const { abort, release } = abortFor(options.signal)
    const request: Dispatcher.RequestOptions = {
      method,
      path: parts.path,
      headers: parts.headers,
      body: body.kind === 'stream' ? req : body.kind === 'parsed' ? body.bytes : null,
      signal: abort.signal,
    }
    const clear = armResponseDeadline(abort, route.timeout)
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
    const headers = buildUpstreamHeaders(req, routed)
    if (body.kind === 'parsed') {
      // The parser's bytes replace the stream: the framing has to describe them.
      delete headers['transfer-encoding']
      headers['content-length'] = String(body.bytes.byteLength)
    }
    const parts: OutgoingParts = { path: joinTargetPath(target, rewritten), headers }
    const prepared = options.prepare?.(parts)
    return prepared instanceof Promise ? prepared.then(() => dispatch(parts)) : dispatch(parts)
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

/** A failure of the user's code (a hook, the router, the transform): 502, naming it. */
function userCodeFailure(error: HookFailure | RouterAnswerError | Error, name: string): UpstreamFailure {
  return { status: 502, cause: `${name} failed`, hint: error.message, code: undefined }
}

/**
 * Builds the forwarding step of a route once: sends each request upstream and relays the
 * answer, answering failures with 502/504 and a short body (see `sendUpstreamFailure`), never
 * throwing. A client that goes away before the answer arrives aborts the upstream request
 * through a `ClientAbort`, so a closed tab does not leave work running on the target.
 *
 * The per-request options run in http-proxy-middleware's order: `router` picks the target, then
 * `pathRewrite`, then the `proxyReq` hooks see the outgoing request; the `proxyRes` hooks see
 * the answer before it is relayed, `transformResponse` may replace its body, and the `error`
 * hooks run before a 502/504 (which they may answer themselves). A hook, router or transform
 * that throws gives a 502 naming it, logged once. Along the way the forwarder explains, once
 * per route, what a developer would otherwise puzzle over (see `createForwardHints`).
 *
 * @example
 * const forward = createForwarder(route, { pool, logger, failures })
 * forward(req, res, '/api/users')
 */
export function createForwarder(route: ResolvedForwardRoute, deps: ForwardDeps): Forwarder {
  const { logger, failures, hops } = deps
  const { hooks, router, transformResponse } = route
  const location = createLocationRewrite(route)
  const hints = createForwardHints(route, location, logger)
  // Routed targets get their own redirect rewrite, built on first use (a few targets at most).
  const routedLocations = new Map<string, ReturnType<typeof createLocationRewrite>>()
  const locationFor = (target: URL) => {
    if (target === route.target) return location
    let known = routedLocations.get(target.href)
    if (known === undefined) {
      if (routedLocations.size >= 64) routedLocations.clear()
      known = createLocationRewrite({ ...route, target })
      routedLocations.set(target.href, known)
    }
    return known
  }

  const routerName = routeOption(route.prefix, 'router')

  /** A failure of the user's code: logged once per hook and cause, answered 502. */
  function failUserCode(req: ProxyRequest, res: ProxyResponse, error: unknown, label: string): void {
    const name = error instanceof HookFailure ? error.hook : routerName
    const failure = userCodeFailure(
      error instanceof HookFailure || error instanceof RouterAnswerError
        ? error
        : new Error(`${name} threw: ${error instanceof Error ? error.message : String(error)}`),
      name,
    )
    // Keyed by the hook, never by its message: a message that carries request data would let
    // a client open a new log line per request.
    logger.limited('error', `${name} threw`, () => `502 ${req.method} ${req.url} → ${label}: ${failure.hint}`)
    sendUpstreamFailure(req, res, failure, label)
  }

  async function relay(req: ProxyRequest, res: ProxyResponse, upstream: UpstreamResponse, target: URL) {
    const routed = target === route.target ? route : { ...route, target }
    if (hooks.proxyRes.length > 0) {
      const proxyRes = { statusCode: upstream.statusCode, headers: upstream.headers }
      await runHooks(hooks.proxyRes, [proxyRes, req, res])
      upstream.statusCode = proxyRes.statusCode
    }
    const rewrite = locationFor(target)
    const rewriteLocation = rewrite.kind === 'rewrite' ? rewrite.rewrite : undefined
    if (transformResponse !== undefined && isTransformable(req, upstream)) {
      const proxyRes = { statusCode: upstream.statusCode, headers: upstream.headers }
      let outcome: TransformOutcome
      try {
        outcome = await transformAnswer(upstream, proxyRes, transformResponse, req, res)
      } catch (error) {
        throw new HookFailure(routeOption(route.prefix, 'transformResponse'), error)
      }
      if (outcome.kind !== 'body') {
        const label = targetLabel(target)
        const hint =
          outcome.kind === 'too-large'
            ? `the answer is larger than ${MAX_TRANSFORM_BYTES} bytes, too large for transformResponse`
            : `transformResponse cannot decode Content-Encoding: ${outcome.encoding}`
        logger.error(
          `502 ${req.method} ${req.url} → ${label}: ${hint}`,
          `${route.prefix} transform ${outcome.kind}`,
        )
        sendUpstreamFailure(
          req,
          res,
          { status: 502, cause: 'transformResponse failed', hint, code: undefined },
          label,
        )
        return
      }
      upstream.statusCode = proxyRes.statusCode
      sendUpstreamResponse(req, res, upstream, routed, logger, { rewriteLocation, body: outcome.body })
      return
    }
    sendUpstreamResponse(req, res, upstream, routed, logger, { rewriteLocation })
  }

  async function forwardTo(req: ProxyRequest, res: ProxyResponse, path: string, body: RequestBody) {
    const abort = new ClientAbort()
    res.once('close', () => {
      if (!res.writableEnded) abort.abort()
    })
    let target = route.target
    let label = targetLabel(target)
    try {
      if (router !== undefined) {
        const chosen = router(req)
        target = (chosen instanceof Promise ? await chosen : chosen) ?? route.target
        label = targetLabel(target)
      }
    } catch (error) {
      failUserCode(req, res, error, label)
      return
    }
    let upstreamPath = path
    let upstream: UpstreamResponse
    try {
      upstream = await requestUpstream(req, route, path, deps.pool, {
        signal: abort.signal,
        report: logger.warn,
        body,
        target,
        prepare:
          hooks.proxyReq.length === 0
            ? undefined
            : (parts) =>
                runHooks(hooks.proxyReq, [outgoingRequest(req.method ?? 'GET', target, parts), req, res]),
        onRetry(error) {
          logger.debug(
            `${req.method} ${req.url}: ${label} closed a kept-alive connection under the request (${errorCode(error)}); sent again on a fresh one`,
          )
        },
        onPath(rewritten) {
          upstreamPath = rewritten
          hops?.set(req, `${label}${rewritten}`)
        },
      })
      // Opted-in routes show the upstream hop's protocol: what ALPN gave, not what was offered.
      if (hops !== undefined && route.http2) {
        hops.set(req, `${label}${upstreamPath} over ${deps.pool.protocolFor(route) === 'h2' ? 'h2' : 'h1.1'}`)
      }
    } catch (error) {
      // An abort of the deadline's own is a 504; any other abort means the client went away.
      if (isResponseClosed(res) || (abort.aborted && !(error instanceof ResponseTimeoutError))) {
        logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
        return
      }
      if (error instanceof HookFailure) {
        failUserCode(req, res, error, label)
        return
      }
      const failure = describeUpstreamError(error, { label, target, timeout: route.timeout })
      failures.failed(failure, label, req)
      if (hooks.error.length > 0) {
        try {
          await runHooks(hooks.error, [error instanceof Error ? error : new Error(String(error)), req, res])
        } catch (hookError) {
          failUserCode(req, res, hookError, label)
          return
        }
        // The hook answered itself: ours would be a second answer.
        if (res.headersSent || res.writableEnded) return
      }
      sendUpstreamFailure(req, res, failure, label)
      return
    }
    failures.answered(label)
    if (abort.aborted) {
      discard(upstream.body)
      return
    }
    hints.answered(req, upstream, path, upstreamPath)
    try {
      await relay(req, res, upstream, target)
    } catch (error) {
      discard(upstream.body)
      if (error instanceof HookFailure) failUserCode(req, res, error, label)
      else throw error
    }
  }

  return function forward(req, res, path) {
    const body = requestBodyOf(req)
    if (body.kind === 'lost') {
      hints.bodyLost(req, body.cause)
      sendText(res, 500, 'text/plain; charset=utf-8', `cors-dev-proxy: ${body.cause}. ${BODY_FIX}\n`)
      return
    }
    forwardTo(req, res, path, body).catch((error: unknown) => {
      // Nothing above should throw; if something does, the client gets a broken response, not a hang.
      logger.limited(
        'error',
        `${route.prefix} internal`,
        () => `${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`,
      )
      abortResponse(res)
    })
  }
}
