import type { Dispatcher } from 'undici'
import type { IncomingProxyResponse, RequestOptions, TransformResponse } from '../config/hook-options.js'
import { routeOption } from '../config/option-path.js'
import { joinTargetPath, PathRewriteFailure } from '../config/path-rewrite.js'
import { copyRouteOptions, headersForRequest } from '../config/request-options.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import { DirectRelay, type DirectRelayOwner } from './direct-relay.js'
import { BODY_FIX, createForwardHints } from './forward-hints.js'
import { type ForwardDeps, outgoingParts } from './forward-request.js'
import { HookFailure, type OutgoingParts, outgoingRequest, runHooks, runRequestHooks } from './hook-runner.js'
import { LostBody, RefusedBody, settleHookedBody } from './hooked-body.js'
import { createLocationRewrite } from './location-rewrite.js'
import {
  describeUpstreamError,
  errorCode,
  sendUpstreamFailure,
  targetLabel,
  type UpstreamFailure,
} from './proxy-error.js'
import { streamRefused } from './renewable-dispatcher.js'
import { type RequestBody, requestBodyOf, upstreamBodyOf } from './request-body.js'
import { abortResponse, isResponseClosed } from './response-state.js'
import { mayRetry, refusedStream } from './retry-policy.js'
import { MAX_TRANSFORM_BYTES, type TransformOutcome, transformAnswer } from './transform-answer.js'
import { clearCopiedHead, copyTargetHead, sendTransformedAnswer } from './transformed-head.js'
import type { UpstreamPool } from './upstream-pool.js'

/** The step that forwards one route's requests (see {@link createForwarder}). */
export type Forwarder = (req: ProxyRequest, res: ProxyResponse, path: string) => void

/**
 * `HEAD <path>` on the route's target, with the prefix kept (for the 404 hint): its status, or
 * `undefined` when the target could not be asked within 2 s.
 */
function probeTarget(
  pool: UpstreamPool,
  route: ResolvedForwardRoute,
  path: string,
): Promise<number | undefined> {
  return pool
    .poolFor(route)
    .request({
      method: 'HEAD',
      path: joinTargetPath(route.target, path),
      headers: { host: route.target.host },
      signal: AbortSignal.timeout(2000),
    })
    .then(
      (answer) => {
        answer.body.resume()
        return answer.statusCode
      },
      () => undefined,
    )
}

/**
 * A failure of the user's code (a hook, the router, `pathRewrite`, the transform): 502, naming
 * it once, as `routes['/api'].router threw: no such tenant` (the 502's body is `cause: hint`);
 * a hook's `proxyReq.destroy(error)` is said so, and is a 400 when the error blames the request.
 */
function userCodeFailure(error: HookFailure | RouterAnswerError, name: string): UpstreamFailure {
  if (error instanceof HookFailure) {
    const cause = error.cause
    return {
      status: error.status,
      cause: `${error.hook} ${error.destroyed ? 'destroyed the request' : 'threw'}`,
      hint: cause instanceof Error ? cause.message : String(cause),
      code: undefined,
    }
  }
  // A router's wrong answer names the router itself (`… returned 42: not an http(s) … URL`).
  const named = error.message.startsWith(`${name} `)
  return {
    status: 502,
    cause: named ? name : `${name} failed`,
    hint: named ? error.message.slice(name.length + 1) : error.message,
    code: undefined,
  }
}

/** A relay of the forwarder's, with what the forwarder needs to know of its request. */
class RouteRelay extends DirectRelay {
  constructor(
    owner: DirectRelayOwner,
    req: ProxyRequest,
    res: ProxyResponse,
    route: ResolvedForwardRoute,
    options: Dispatcher.DispatchOptions,
    rewriteLocation: ReturnType<typeof createLocationRewrite>,
    /** The matched path (for the hints). */
    readonly path: string,
    /** What goes up as the body (for the retry). */
    readonly body: RequestBody,
    label: string,
  ) {
    super(
      owner,
      req,
      res,
      route,
      options,
      rewriteLocation.kind === 'rewrite' ? rewriteLocation.rewrite : undefined,
      label,
    )
  }
}

/**
 * Builds the forwarding step of a route once: sends each request upstream and relays the
 * answer, answering failures with 502/504 and a short body (see `sendUpstreamFailure`), never
 * throwing. A client that goes away before the answer arrives aborts the upstream request, so a
 * closed tab does not leave work running on the target.
 *
 * Every answer is relayed by a `DirectRelay` (an undici `dispatch()` handler writing straight
 * into the response): the `proxyRes` hooks run on its head, and `transformResponse` gets the
 * body it collected. The common route (no `router`, no `proxyReq` hooks, a synchronous
 * `pathRewrite`) allocates no promise on its way, nor does a synchronous hook or transform.
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
  const { logger, failures, hops, heads, pool } = deps
  const { hooks, router, transformResponse } = route
  const location = createLocationRewrite(route)
  const hints = createForwardHints(route, location, logger, (path) => probeTarget(pool, route, path))
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
  const routeLabel = targetLabel(route.target)
  // No router, no `proxyReq` hooks: the request can go out in the same tick it arrived.
  const synchronous = router === undefined && hooks.proxyReq.length === 0
  const transformName = routeOption(route.prefix, 'transformResponse')

  /** A failure of the user's code: logged once per hook and cause, answered 502 (or 400, see `HookFailure`). */
  function failUserCode(req: ProxyRequest, res: ProxyResponse, thrown: unknown, label: string): void {
    const error = thrown instanceof PathRewriteFailure ? new HookFailure(thrown.option, thrown.cause) : thrown
    const name =
      error instanceof HookFailure
        ? error.hook
        : error instanceof RouterAnswerError
          ? (error.option ?? routerName)
          : routerName
    const failure = userCodeFailure(
      error instanceof HookFailure || error instanceof RouterAnswerError
        ? error
        : new HookFailure(name, error),
      name,
    )
    // Keyed by the hook, never by its message: a message that carries request data would let
    // a client open a new log line per request.
    logger.limited(
      'error',
      `${name} threw`,
      () => `${failure.status} ${req.method} ${req.url} → ${label}: ${failure.cause}: ${failure.hint}`,
    )
    sendUpstreamFailure(req, res, failure, label)
  }

  /**
   * A body that cannot be sent: lost to a parser before the proxy (500, with the fix), or unsafe
   * to send again (400). Nothing reaches the target; one log line per route and kind.
   */
  function refuseBody(req: ProxyRequest, res: ProxyResponse, problem: RefusedBody | LostBody): void {
    if (problem instanceof LostBody) {
      hints.bodyLost(req, problem.message)
      sendText(res, 500, 'text/plain; charset=utf-8', `cors-dev-proxy: ${problem.message}. ${BODY_FIX}\n`)
      return
    }
    logger.limited(
      'warn',
      `${route.prefix} body refused`,
      () => `400 ${req.method} ${req.url}: ${problem.message}; the request was not forwarded`,
    )
    sendText(res, 400, 'text/plain; charset=utf-8', `cors-dev-proxy: ${problem.message}; not forwarded.\n`)
  }

  /** Nothing above should throw; if something does, the client gets a broken response, not a hang. */
  function internalFailure(req: ProxyRequest, res: ProxyResponse, error: unknown): void {
    logger.limited(
      'error',
      `${route.prefix} internal`,
      () => `${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`,
    )
    abortResponse(res)
  }

  /**
   * The request failed before any answer: logged through the failure log, the `error` hooks
   * run, then 502/504 (unless a hook answered). `clientGone` says the client left first.
   */
  async function failBeforeAnswer(
    req: ProxyRequest,
    res: ProxyResponse,
    error: unknown,
    target: URL,
    clientGone: boolean,
  ): Promise<void> {
    const label = targetLabel(target)
    if (isResponseClosed(res) || clientGone) {
      logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
      return
    }
    if (
      error instanceof HookFailure ||
      error instanceof PathRewriteFailure ||
      error instanceof RouterAnswerError
    ) {
      failUserCode(req, res, error, label)
      return
    }
    if (error instanceof RefusedBody || error instanceof LostBody) {
      refuseBody(req, res, error)
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
  }

  /**
   * Answers with what `transformResponse` made of the collected body (`undefined`: too large),
   * the target's head first put on `res` where the transform may change it (as in hpm). A
   * transform that throws is the 502 naming it; one that cannot be given the body (too large,
   * an encoding Node cannot undo) is a 502 saying why.
   */
  function answerTransformed(relay: DirectRelay, head: IncomingProxyResponse, raw: Buffer | undefined): void {
    const { req, res, route: routed, label } = relay
    const transform = transformResponse as TransformResponse
    const copied = copyTargetHead(req, res, head, routed, relay.rewriteLocation, logger)
    if (copied === undefined) return
    const proxyRes = { statusCode: head.statusCode, headers: head.headers }
    const settle = (outcome: TransformOutcome): void => {
      if (outcome.kind === 'body') {
        sendTransformedAnswer(req, res, copied, proxyRes, outcome, routed.target, logger)
        return
      }
      clearCopiedHead(res, copied)
      const hint =
        outcome.kind === 'too-large'
          ? `the answer is larger than ${MAX_TRANSFORM_BYTES / 2 ** 20} MiB, too large for transformResponse`
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
    }
    const threw = (error: unknown): void => {
      clearCopiedHead(res, copied)
      failUserCode(req, res, new HookFailure(transformName, error), label)
    }
    if (raw === undefined) {
      settle({ kind: 'too-large' })
      return
    }
    let outcome: TransformOutcome | Promise<TransformOutcome>
    try {
      outcome = transformAnswer(raw, proxyRes, transform, req, res)
    } catch (error) {
      threw(error)
      return
    }
    if (outcome instanceof Promise)
      outcome.then(settle, threw).catch((error: unknown) => internalFailure(req, res, error))
    else settle(outcome)
  }

  const owner: DirectRelayOwner = {
    logger,
    answered(relay, statusCode, headers) {
      const { req, route: routed } = relay as RouteRelay
      const label = relay.label
      heads?.set(req, performance.now())
      failures.answered(label)
      hints.answered(req, { statusCode, headers }, (relay as RouteRelay).path, relay.options.path)
      // Opted-in routes show the upstream hop's protocol: what ALPN gave, not what was offered.
      if (hops !== undefined && route.http2) {
        hops.set(
          req,
          `${label}${relay.options.path} over ${pool.protocolFor(routed) === 'h2' ? 'h2' : 'h1.1'}`,
        )
      }
    },
    failed(relay, error) {
      const { req, res } = relay
      failBeforeAnswer(req, res, error, relay.route.target, false).catch((thrown: unknown) =>
        internalFailure(req, res, thrown),
      )
    },
    retried(relay, error) {
      const { req, route: routed, body } = relay as RouteRelay
      if (!mayRetry(req.method ?? 'GET', body, error)) return false
      relay.retriedOnce = true
      if (refusedStream(error)) {
        // The target's HTTP/2 connections are spent: new ones for this request and the next.
        logger.debug(
          `${req.method} ${req.url}: ${relay.label} refused the stream (${error.message}); sent again on a new connection`,
        )
        const dispatcher = pool.poolFor(routed)
        streamRefused(dispatcher, relay.generation)
        relay.send(dispatcher)
        return true
      }
      logger.debug(
        `${req.method} ${req.url}: ${relay.label} closed a kept-alive connection under the request (${errorCode(error)}); sent again on a fresh one`,
      )
      pool.dispatchFresh(routed, relay.options, relay)
      return true
    },
    collected(relay, statusCode, headers, body) {
      answerTransformed(relay, { statusCode, headers }, body)
    },
  }

  /** Sends the prepared request and relays the answer straight into the response. */
  function relayDirect(
    req: ProxyRequest,
    res: ProxyResponse,
    path: string,
    body: RequestBody,
    target: URL,
    parts: OutgoingParts,
  ): void {
    const label = target === route.target ? routeLabel : targetLabel(target)
    hops?.set(req, `${label}${parts.path}`)
    if (isResponseClosed(res)) {
      logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
      return
    }
    const routed = target === route.target ? route : { ...route, target }
    const options: Dispatcher.DispatchOptions = {
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      path: parts.path,
      headers: parts.headers,
      body: upstreamBodyOf(req, body),
    }
    new RouteRelay(owner, req, res, routed, options, locationFor(target), path, body, label).start(
      pool.poolFor(routed),
    )
  }

  /**
   * The target, the request's copy of the options it got and may have changed (only on a route
   * with a router: http-proxy-middleware 4 hands it a copy per request), or a failure answered.
   */
  async function routeTarget(
    req: ProxyRequest,
    res: ProxyResponse,
    router: NonNullable<ResolvedForwardRoute['router']>,
  ): Promise<{ target: URL; options: RequestOptions | undefined } | undefined> {
    const options = copyRouteOptions(route.source)
    try {
      const chosen = router(req, res, options)
      return { target: (chosen instanceof Promise ? await chosen : chosen) ?? route.target, options }
    } catch (error) {
      failUserCode(req, res, error, routeLabel)
      return undefined
    }
  }

  /** Every route but the synchronous common one: router, async rewrites, hooks. */
  async function forwardTo(req: ProxyRequest, res: ProxyResponse, path: string, body: RequestBody) {
    // The router and the `proxyReq` hooks may take their time: the client may leave meanwhile.
    let gone = false
    res.once('close', () => {
      if (!res.writableEnded) gone = true
    })
    // No promise for a route without a router (one with `proxyReq` hooks only).
    const routedBy =
      router === undefined
        ? { target: route.target, options: undefined }
        : await routeTarget(req, res, router)
    if (routedBy === undefined) return
    const { target, options } = routedBy
    const label = targetLabel(target)
    const prepare =
      hooks.proxyReq.length === 0
        ? undefined
        : async (parts: OutgoingParts): Promise<RequestBody> => {
            const proxyReq = outgoingRequest(req.method ?? 'GET', target, parts)
            await runRequestHooks(hooks.proxyReq, [proxyReq, req, res], parts)
            const settled = settleHookedBody(req, parts, body, `route '${route.prefix}'`, (message) =>
              logger.limited('warn', `${route.prefix} proxyReq body`, () => message),
            )
            // A body a parser read and no hook rewrote cannot be sent: never forward it empty.
            if (settled.kind === 'lost') throw new LostBody(settled.cause)
            return settled
          }
    let parts: OutgoingParts
    let sent = body
    try {
      const rewritten = route.rewritePath(path, req, logger.warn, res, options)
      const upstreamPath = typeof rewritten === 'string' ? rewritten : await rewritten
      // What the router (or the pathRewrite after it) set on the request's `options.headers`.
      const headers =
        options === undefined
          ? route.headers
          : headersForRequest(route.headers, route.source, options, routerName)
      const routed =
        target === route.target && headers === route.headers ? route : { ...route, target, headers }
      parts = outgoingParts(req, routed, upstreamPath, body)
      sent = (await prepare?.(parts)) ?? body
    } catch (error) {
      await failBeforeAnswer(req, res, error, target, gone)
      return
    }
    if (gone) {
      logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
      return
    }
    relayDirect(req, res, path, sent, target, parts)
  }

  /** The common route: the path rewritten at once (or awaited), then sent. */
  function forwardNow(req: ProxyRequest, res: ProxyResponse, path: string, body: RequestBody): void {
    let rewritten: string | Promise<string>
    try {
      rewritten = route.rewritePath(path, req, logger.warn, res)
    } catch (error) {
      failUserCode(req, res, error, routeLabel)
      return
    }
    if (typeof rewritten === 'string') {
      relayDirect(req, res, path, body, route.target, outgoingParts(req, route, rewritten, body))
      return
    }
    rewritten
      .then(
        (settled) =>
          relayDirect(req, res, path, body, route.target, outgoingParts(req, route, settled, body)),
        (error: unknown) => failUserCode(req, res, error, routeLabel),
      )
      .catch((error: unknown) => internalFailure(req, res, error))
  }

  return function forward(req, res, path) {
    const body = requestBodyOf(req)
    if (body.kind === 'refused') {
      refuseBody(req, res, new RefusedBody(body.cause))
      return
    }
    // A `proxyReq` hook may still write the body (the fixRequestBody pattern): decided after it.
    if (body.kind === 'lost' && hooks.proxyReq.length === 0) {
      refuseBody(req, res, new LostBody(body.cause))
      return
    }
    if (synchronous) forwardNow(req, res, path, body)
    else forwardTo(req, res, path, body).catch((error: unknown) => internalFailure(req, res, error))
  }
}
