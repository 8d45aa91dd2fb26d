import { RouterAnswerError } from '../config/resolve-router.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { PathRewriteFailure } from '../http/rewrite-path.js'
import { sendText } from '../http/send-text.js'
import type { FailedAt, ForwardContext } from './forward-context.js'
import { BODY_FIX } from './forward-hints.js'
import { HookFailure, runHooks } from './hook-runner.js'
import { LostBody, RefusedBody } from './hooked-body.js'
import {
  describeUpstreamError,
  sendUpstreamFailure,
  targetLabel,
  type UpstreamFailure,
} from './proxy-error.js'
import type { RelayExchange } from './relay-state.js'
import { abortResponse, isResponseClosed } from './response-state.js'

// How a forwarded request that goes wrong is answered, never thrown: the user's code failing
// (a hook, the router, `pathRewrite`, the transform), a body that cannot be sent, the target
// failing before it answered, and a bug of ours.

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

/**
 * A failure of the user's code: logged once per hook and cause, answered 502 (or 400, see
 * `HookFailure`). Whatever else was thrown is blamed on the router, the only other user code.
 *
 * @example
 * failUserCode(context, req, res, new HookFailure("routes['/api'].on.proxyReq", error), label)
 */
export function failUserCode(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  thrown: unknown,
  label: string,
): void {
  const { routerName } = context
  const error = thrown instanceof PathRewriteFailure ? new HookFailure(thrown.option, thrown.cause) : thrown
  const name =
    error instanceof HookFailure
      ? error.hook
      : error instanceof RouterAnswerError
        ? (error.option ?? routerName)
        : routerName
  const failure = userCodeFailure(
    error instanceof HookFailure || error instanceof RouterAnswerError ? error : new HookFailure(name, error),
    name,
  )
  // Keyed by the hook, never by its message: a message that carries request data would let
  // a client open a new log line per request.
  context.logger.limited(
    'error',
    `${name} threw`,
    () => `${failure.status} ${req.method} ${req.url} → ${label}: ${failure.cause}: ${failure.hint}`,
  )
  sendUpstreamFailure(req, res, failure, label)
}

/**
 * A body that cannot be sent: lost to a parser before the proxy (500, with the fix), or unsafe
 * to send again (400). Nothing reaches the target; one log line per route and kind.
 *
 * @example
 * refuseBody(context, req, res, new LostBody('express.json() read the body'))
 */
export function refuseBody(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  problem: RefusedBody | LostBody,
): void {
  if (problem instanceof LostBody) {
    context.hints.bodyLost(req, problem.message)
    sendText(res, 500, 'text/plain; charset=utf-8', `cors-dev-proxy: ${problem.message}. ${BODY_FIX}\n`)
    return
  }
  context.logger.limited(
    'warn',
    `${context.route.prefix} body refused`,
    () => `400 ${req.method} ${req.url}: ${problem.message}; the request was not forwarded`,
  )
  sendText(res, 400, 'text/plain; charset=utf-8', `cors-dev-proxy: ${problem.message}; not forwarded.\n`)
}

/**
 * Nothing of the forwarder should throw; if something does, the client gets a broken
 * response, not a hang.
 *
 * @example
 * promise.catch((error: unknown) => internalFailure(context, req, res, error))
 */
export function internalFailure(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  error: unknown,
): void {
  context.logger.limited(
    'error',
    `${context.route.prefix} internal`,
    () => `${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`,
  )
  abortResponse(res)
}

/**
 * The request failed before any answer: logged through the failure log, the `error` hooks
 * run, then 502/504 (unless a hook answered). `clientGone` says the client left first; `at` is
 * where the request was going, for the route's fallback (a replay).
 *
 * @example
 * await failBeforeAnswer(context, req, res, error, route.target, false, { path, exchange })
 */
export async function failBeforeAnswer(
  context: ForwardContext,
  req: ProxyRequest,
  res: ProxyResponse,
  error: unknown,
  target: URL,
  clientGone: boolean,
  at: FailedAt,
): Promise<void> {
  const { logger, route } = context
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
    failUserCode(context, req, res, error, label)
    return
  }
  if (error instanceof RefusedBody || error instanceof LostBody) {
    refuseBody(context, req, res, error)
    return
  }
  const failure = describeUpstreamError(error, { label, target, timeout: route.timeout })
  context.failures.failed(failure, label, req)
  if (context.fallback !== undefined && (await context.fallback(req, res, failure.cause, at))) return
  if (route.hooks.error.length > 0) {
    try {
      await runHooks(route.hooks.error, [error instanceof Error ? error : new Error(String(error)), req, res])
    } catch (hookError) {
      failUserCode(context, req, res, hookError, label)
      return
    }
    // The hook answered itself: ours would be a second answer.
    if (res.headersSent || res.writableEnded) return
  }
  sendUpstreamFailure(req, res, failure, label)
}

/**
 * {@link failBeforeAnswer} from a place that cannot await it (the relay's undici callbacks).
 *
 * @example
 * answerFailure(relay, error)
 */
export function answerFailure(relay: RelayExchange, error: unknown): void {
  const { context, req, res } = relay
  failBeforeAnswer(context, req, res, error, relay.route.target, false, relay).catch((thrown: unknown) =>
    internalFailure(context, req, res, thrown),
  )
}
