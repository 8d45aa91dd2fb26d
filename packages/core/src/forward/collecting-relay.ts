import type { IncomingHttpHeaders } from 'node:http'
import type { TransformResponse } from '../config/hook-options.js'
import { failUserCode, internalFailure } from './forward-failures.js'
import { HookFailure } from './hook-runner.js'
import { sendUpstreamFailure } from './proxy-error.js'
import { headersFromRaw, type RawField } from './raw-headers.js'
import { StreamingRelay } from './streaming-relay.js'
import {
  isTransformable,
  MAX_TRANSFORM_BYTES,
  type TransformOutcome,
  transformAnswer,
} from './transform-answer.js'
import { clearCopiedHead, copyTargetHead, sendTransformedAnswer } from './transformed-head.js'
import { COLLECTING, DONE } from './upstream-relay.js'

/**
 * One forwarded request of a route with `transformResponse`: an answer the transform applies to
 * (see `isTransformable`) is read into memory, up to `MAX_TRANSFORM_BYTES`, and the client gets
 * what the transform made of it; any other answer (an event stream, a 304...) is streamed as a
 * {@link StreamingRelay} streams it.
 *
 * @example
 * new CollectingRelay({ context, req, res, route, dispatch, rewriteLocation, label, path, body }).start(pool.poolFor(route))
 */
export class CollectingRelay extends StreamingRelay {
  /** The head the collected body belongs to (after the `proxyRes` hooks). */
  #status = 0
  #headers: IncomingHttpHeaders | undefined

  protected override answer(statusCode: number, headers: IncomingHttpHeaders): boolean {
    if (!isTransformable(this.req.method, statusCode, headers)) return super.answer(statusCode, headers)
    this.state = COLLECTING
    this.#status = statusCode
    this.#headers = headers
    this.held ??= []
    return this.heldBytes <= MAX_TRANSFORM_BYTES || this.#tooLarge()
  }

  /** The transform reads the head as an object, as `proxyRes` hooks do: never the raw list. */
  protected override answerRaw(statusCode: number, rawHeaders: readonly RawField[]): boolean {
    return this.answer(statusCode, headersFromRaw(rawHeaders))
  }

  /** The collected body outgrew `MAX_TRANSFORM_BYTES`: the request is dropped, the client told why. */
  #tooLarge(): false {
    this.held = undefined
    this.finish()
    this.#answerTransformed(undefined)
    return false
  }

  protected override releaseHeld(): void {
    if (this.state !== COLLECTING) {
      super.releaseHeld()
      return
    }
    // The held chunks are the start of the collected body.
    if (this.heldComplete) this.onComplete()
    else this.resume?.()
  }

  override onData(chunk: Buffer): boolean {
    if (this.state !== COLLECTING) return super.onData(chunk)
    this.heldBytes += chunk.byteLength
    if (this.heldBytes > MAX_TRANSFORM_BYTES) return this.#tooLarge()
    this.held?.push(chunk)
    return true
  }

  override onComplete(): void {
    if (this.state !== COLLECTING) {
      super.onComplete()
      return
    }
    this.state = DONE
    const body = Buffer.concat(this.held ?? [], this.heldBytes)
    this.held = undefined
    this.#answerTransformed(body)
  }

  /**
   * Answers with what `transformResponse` made of the collected body (`undefined`: too large),
   * the target's head first put on `res` where the transform may change it (as in hpm). A
   * transform that throws is the 502 naming it; one that cannot be given the body (too large,
   * an encoding Node cannot undo) is a 502 saying why.
   */
  #answerTransformed(raw: Buffer | undefined): void {
    const { context, req, res, route } = this
    const head = { statusCode: this.#status, headers: this.#headers ?? {} }
    const copied = copyTargetHead(req, res, head, route, this.rewriteLocation, context.logger)
    if (copied === undefined) return
    const proxyRes = { statusCode: head.statusCode, headers: head.headers }
    const settle = (outcome: TransformOutcome): void => {
      if (outcome.kind === 'body') {
        sendTransformedAnswer(req, res, copied, proxyRes, outcome, route.target, context.logger)
        return
      }
      clearCopiedHead(res, copied)
      this.#untransformable(outcome)
    }
    const threw = (error: unknown): void => {
      clearCopiedHead(res, copied)
      failUserCode(context, req, res, new HookFailure(context.transformName, error), this.label)
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
  #untransformable(outcome: Exclude<TransformOutcome, { kind: 'body' }>): void {
    const { context, req, res, label } = this
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
}
