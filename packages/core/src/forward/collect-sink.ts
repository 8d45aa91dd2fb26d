import type { IncomingHttpHeaders } from 'node:http'
import type { TransformResponse } from '../config/hook-options.js'
import { failUserCode, internalFailure } from './forward-failures.js'
import { HookFailure } from './hook-runner.js'
import { sendUpstreamFailure } from './proxy-error.js'
import { headersFromRaw, type RawField } from './raw-headers.js'
import { streamSink } from './relay-sink.js'
import { type RelayExchange, type RelaySink, RelayState } from './relay-state.js'
import {
  isTransformable,
  MAX_TRANSFORM_BYTES,
  type TransformOutcome,
  transformAnswer,
} from './transform-answer.js'
import { clearCopiedHead, copyTargetHead, sendTransformedAnswer } from './transformed-head.js'

/** Keeps the head, and collects the body from here on; an answer it does not transform streams. */
function collectHead(relay: RelayExchange, statusCode: number, headers: IncomingHttpHeaders): boolean {
  if (!isTransformable(relay.req.method, statusCode, headers)) {
    relay.sink = streamSink
    return streamSink.head(relay, statusCode, headers)
  }
  relay.state = RelayState.Collecting
  relay.headStatus = statusCode
  relay.headHeaders = headers
  relay.held ??= []
  return relay.heldBytes <= MAX_TRANSFORM_BYTES || tooLarge(relay)
}

/** The collected body outgrew `MAX_TRANSFORM_BYTES`: the request is dropped, the client told why. */
function tooLarge(relay: RelayExchange): false {
  relay.held = undefined
  relay.finish()
  answerTransformed(relay, undefined)
  return false
}

/**
 * The answer of a route with `transformResponse`: one the transform applies to (see
 * `isTransformable`) is read into memory, up to `MAX_TRANSFORM_BYTES`, and the client gets what
 * the transform made of it; any other answer (an event stream, a 304...) is handed to
 * {@link streamSink} at its head, and streams.
 *
 * @example
 * new Relay({ ...parts, sink: collectSink }).start(pool.poolFor(route))
 */
export const collectSink: RelaySink = Object.freeze({
  head: collectHead,
  /** The transform reads the head as an object, as `proxyRes` hooks do: never the raw list. */
  rawHead(relay: RelayExchange, statusCode: number, rawHeaders: readonly RawField[]): boolean {
    return collectHead(relay, statusCode, headersFromRaw(rawHeaders))
  },
  release(relay: RelayExchange): void {
    // The held chunks are the start of the collected body.
    if (relay.heldComplete) relay.onComplete()
    else relay.resume?.()
  },
  data(relay: RelayExchange, chunk: Buffer): boolean {
    relay.heldBytes += chunk.byteLength
    if (relay.heldBytes > MAX_TRANSFORM_BYTES) return tooLarge(relay)
    relay.held?.push(chunk)
    return true
  },
  end(relay: RelayExchange): void {
    relay.state = RelayState.Done
    const body = Buffer.concat(relay.held ?? [], relay.heldBytes)
    relay.held = undefined
    answerTransformed(relay, body)
  },
})

/**
 * Answers with what `transformResponse` made of the collected body (`undefined`: too large),
 * the target's head first put on `res` where the transform may change it (as in hpm). A
 * transform that throws is the 502 naming it; one that cannot be given the body (too large,
 * an encoding Node cannot undo) is a 502 saying why.
 */
function answerTransformed(relay: RelayExchange, raw: Buffer | undefined): void {
  const { context, req, res, route } = relay
  const head = { statusCode: relay.headStatus, headers: relay.headHeaders ?? {} }
  const copied = copyTargetHead(req, res, head, route, relay.rewriteLocation, context.logger)
  if (copied === undefined) return
  const proxyRes = { statusCode: head.statusCode, headers: head.headers }
  const settle = (outcome: TransformOutcome): void => {
    if (outcome.kind === 'body') {
      sendTransformedAnswer(req, res, copied, proxyRes, outcome, route.target, context.logger)
      return
    }
    clearCopiedHead(res, copied)
    untransformable(relay, outcome)
  }
  const threw = (error: unknown): void => {
    clearCopiedHead(res, copied)
    failUserCode(context, req, res, new HookFailure(context.transformName, error), relay.label)
  }
  if (raw === undefined) {
    settle({ kind: 'too-large' })
    return
  }
  let outcome: TransformOutcome | Promise<TransformOutcome>
  try {
    outcome = transformAnswer(raw, proxyRes, route.transformResponse as TransformResponse, req, res)
  } catch (error) {
    threw(error)
    return
  }
  if (outcome instanceof Promise)
    outcome.then(settle, threw).catch((error: unknown) => internalFailure(context, req, res, error))
  else settle(outcome)
}

/** The transform could not be given the body (too large, an encoding Node cannot undo): 502 saying why. */
function untransformable(relay: RelayExchange, outcome: Exclude<TransformOutcome, { kind: 'body' }>): void {
  const { context, req, res, label } = relay
  const hint =
    outcome.kind === 'too-large'
      ? `the answer is larger than ${MAX_TRANSFORM_BYTES / 2 ** 20} MiB, too large for transformResponse`
      : `transformResponse cannot decode Content-Encoding: ${outcome.encoding}`
  context.logger.error(
    `502 ${req.method} ${req.url} → ${label}: ${hint}`,
    `${context.route.prefix} transform ${outcome.kind}`,
  )
  sendUpstreamFailure(
    req,
    res,
    { status: 502, cause: 'transformResponse failed', hint, code: undefined },
    label,
  )
}
