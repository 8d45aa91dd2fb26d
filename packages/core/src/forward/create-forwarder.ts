/*
 * forward/: one request's forwarding, for HTTP and WebSocket. The forwarder (here) prepares the
 * body (request-body.ts, hooked-body.ts), the outgoing request (prepare-request.ts: router,
 * `pathRewrite`, headers; shared with websocket-upgrade.ts and proxy/fetch-websocket.ts, each
 * passing its header variant from request-headers.ts or handshake-headers.ts; a router's
 * per-request options copy in request-options.ts), then hands the request to one `Relay`
 * (relay.ts), an undici dispatch handler whose state is one `RelayState` (relay-state.ts) and
 * whose sink streams the answer (relay-sink.ts) or collects it for `transformResponse`
 * (collect-sink.ts). The pools (upstream-pool.ts: keep-alive learning, HTTP/2 multiplexing,
 * redirects), the client's head (response-headers.ts: cookies, `Location`, hop-by-hop fields)
 * and the answers to failures (forward-failures.ts, relay-failures.ts, proxy-error.ts,
 * failure-log.ts) live here too. Rules: nothing throws at request time; the common route takes
 * no promise and no stream object; no class extends another
 * (packages/core/test/architecture/class-inheritance.test.ts; undici's `Dispatcher` wrappers aside).
 */
import type { Dispatcher } from 'undici'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Exchange } from '../pipeline/exchange.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { collectSink } from './collect-sink.js'
import { createForwardContext, type ForwardContext, type ForwardDeps } from './forward-context.js'
import { failBeforeAnswer, failUserCode, internalFailure, refuseBody } from './forward-failures.js'
import { frameBody } from './frame-body.js'
import { type OutgoingParts, outgoingRequest, runRequestHooks } from './hook-runner.js'
import { LostBody, RefusedBody, settleHookedBody } from './hooked-body.js'
import {
  createRequestPreparer,
  type PreparedRequest,
  prepareRequest,
  type RequestPreparer,
  type Routing,
  rewriteRequest,
  routeRequest,
} from './prepare-request.js'
import { targetLabel } from './proxy-error.js'
import { Relay } from './relay.js'
import { streamSink } from './relay-sink.js'
import { type RequestBody, requestBodyOf, upstreamBodyOf } from './request-body.js'
import { buildUpstreamHeaders } from './request-headers.js'
import { isResponseClosed } from './response-state.js'

/**
 * The step that forwards one route's requests (see {@link createForwarder}): the terminal step
 * of every route with a target, so it answers and never calls `next`.
 */
export type Forwarder = RouteStep

/**
 * Builds the forwarding step of a route once. Each request then takes these steps, in order:
 *
 * 1. prepare: the body it can send (`requestBodyOf`); one lost to a parser or unsafe to send
 *    is answered here ({@link prepareBody});
 * 2. prepare the outgoing request (`prepare-request.ts`, shared with WebSocket handshakes):
 *    router, `pathRewrite`, headers, at once ({@link rewriteNow}), or awaited and followed by the
 *    `proxyReq` hooks, in http-proxy-middleware's order ({@link routeAndRewrite});
 * 3. send: the upstream request goes through the target's pool ({@link send});
 * 4. relay: one `Relay` per request, whose sink streams the answer into the response
 *    (`streamSink`), or reads it whole for `transformResponse` (`collectSink`), the `proxyRes`
 *    hooks first;
 * 5. answer: the relay writes the answer, and `forward-failures.ts` a 502/504 with a short
 *    body, or the `error` hooks' answer, when something failed; nothing throws.
 *
 * The common route (no `router`, no `proxyReq` hooks, a synchronous `pathRewrite`) allocates
 * no promise on its way, nor does a synchronous hook or transform. A client that goes away
 * before the answer aborts the upstream request, so a closed tab leaves no work on the target.
 *
 * @example
 * const forward = createForwarder(route, { pool, logger, failures })
 * forward(req, res, next, '/api/users')
 */
export function createForwarder(route: ResolvedForwardRoute, deps: ForwardDeps): Forwarder {
  const context = createForwardContext(route, deps)
  const preparer = createRequestPreparer(route, context.logger.warn, buildUpstreamHeaders)
  // No router, no `proxyReq` hooks: the request can go out in the same tick it arrived.
  const synchronous = route.router === undefined && route.hooks.proxyReq.length === 0
  return function forward(req, res, _next, path, exchange) {
    const body = prepareBody(context, req, res)
    if (body === undefined) return
    if (synchronous) rewriteNow(context, preparer, req, res, path, body, exchange)
    else
      routeAndRewrite(context, preparer, req, res, path, body, exchange).catch((error: unknown) =>
        internalFailure(context, req, res, error),
      )
  }
}

/** Step 1: the request's body, or `undefined` when it cannot be sent (answered). */
function prepareBody(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
): RequestBody | undefined {
  const body = requestBodyOf(req)
  if (body.kind === 'refused') {
    refuseBody(context, req, res, new RefusedBody(body.cause))
    return undefined
  }
  // A `proxyReq` hook may still write the body (the fixRequestBody pattern): decided after it.
  if (body.kind === 'lost' && context.route.hooks.proxyReq.length === 0) {
    refuseBody(context, req, res, new LostBody(body.cause))
    return undefined
  }
  return body
}

/** Step 2 on the common route: the request prepared at once (or its `pathRewrite` awaited), then sent. */
function rewriteNow(
  context: ForwardContext,
  preparer: RequestPreparer,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  body: RequestBody,
  exchange: Exchange | undefined,
): void {
  let prepared: PreparedRequest | Promise<PreparedRequest>
  try {
    prepared = prepareRequest(preparer, req, res, path)
  } catch (error) {
    failUserCode(context, req, res, error, context.label)
    return
  }
  if (!(prepared instanceof Promise)) {
    frameBody(prepared.headers, body)
    send(context, req, res, path, body, prepared, exchange)
    return
  }
  prepared
    .then(
      (settled) => {
        frameBody(settled.headers, body)
        send(context, req, res, path, body, settled, exchange)
      },
      (error: unknown) => failUserCode(context, req, res, error, context.label),
    )
    .catch((error: unknown) => internalFailure(context, req, res, error))
}

/** The `proxyReq` hooks on the outgoing request, then the body they leave (never one a parser emptied). */
async function runProxyReqHooks(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  target: URL,
  parts: OutgoingParts,
  body: RequestBody,
): Promise<RequestBody> {
  const { route, logger } = context
  const proxyReq = outgoingRequest(req.method ?? 'GET', target, parts)
  await runRequestHooks(route.hooks.proxyReq, [proxyReq, req, res], parts)
  const settled = settleHookedBody(req, parts, body, `route '${route.prefix}'`, (message) =>
    logger.limited('warn', `${route.prefix} proxyReq body`, () => message),
  )
  // A body a parser read and no hook rewrote cannot be sent: never forward it empty.
  if (settled.kind === 'lost') throw new LostBody(settled.cause)
  return settled
}

/** Step 2 on every other route: the router, then `pathRewrite` (maybe async), then the `proxyReq` hooks. */
async function routeAndRewrite(
  context: ForwardContext,
  preparer: RequestPreparer,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  body: RequestBody,
  exchange: Exchange | undefined,
): Promise<void> {
  const { route, logger } = context
  // The router and the `proxyReq` hooks may take their time: the client may leave meanwhile.
  let gone = false
  res.once('close', () => {
    if (!res.writableEnded) gone = true
  })
  let routing: Routing
  try {
    // No promise for a route without a router (one with `proxyReq` hooks only).
    const routed = routeRequest(preparer, req, res)
    routing = routed instanceof Promise ? await routed : routed
  } catch (error) {
    failUserCode(context, req, res, error, context.label)
    return
  }
  const { target } = routing
  let parts: PreparedRequest
  let sent = body
  try {
    const prepared = rewriteRequest(preparer, req, res, path, routing)
    parts = prepared instanceof Promise ? await prepared : prepared
    frameBody(parts.headers, body)
    if (route.hooks.proxyReq.length > 0) sent = await runProxyReqHooks(context, req, res, target, parts, body)
  } catch (error) {
    await failBeforeAnswer(context, req, res, error, target, gone, { path, exchange })
    return
  }
  if (gone) {
    logger.debug(`${req.method} ${req.url}: the client went away before ${targetLabel(target)} answered`)
    return
  }
  send(context, req, res, path, sent, parts, exchange)
}

/** Step 3: the prepared request goes to the target's pool, its relay (step 4) as the handler. */
function send(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  body: RequestBody,
  parts: PreparedRequest,
  exchange: Exchange | undefined,
): void {
  const { route } = context
  const { target } = parts
  const label = target === route.target ? context.label : targetLabel(target)
  if (exchange !== undefined) {
    // `parts.path` already starts with the target's own path (`/v1/pets` for `http://host/v1`): after its origin only.
    exchange.hop = `${target.origin}${parts.path}`
    exchange.upstreamPath = parts.path
    // A route's `openapi` checks the request as the target gets it (contract/contract-route.ts).
    if (exchange.contract !== undefined) exchange.upstreamHeaders = parts.headers
  }
  if (isResponseClosed(res)) {
    context.logger.debug(`${req.method} ${req.url}: the client went away before ${label} answered`)
    return
  }
  const routed = target === route.target ? route : { ...route, target }
  const dispatch: Dispatcher.DispatchOptions = {
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    path: parts.path,
    headers: parts.headers,
    body: upstreamBodyOf(req, body, exchange),
  }
  const rewriteLocation = context.locationFor(target)
  const sink = route.transformResponse === undefined ? streamSink : collectSink
  const relay = new Relay({
    context,
    req,
    res,
    route: routed,
    dispatch,
    rewriteLocation,
    label,
    path,
    body,
    exchange,
    sink,
  })
  relay.start(context.pool.poolFor(routed))
}
