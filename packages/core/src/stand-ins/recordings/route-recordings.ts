import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { UpstreamFallback } from '../../forward/forward-context.js'
import type { Logger } from '../../log/logger.js'
import { newExchange } from '../../pipeline/exchange.js'
import type { RouteStep } from '../../pipeline/route-pipeline.js'
import { createReplayer } from './create-replayer.js'
import { createRecordTap } from './record-tap.js'
import type { RecordingStore } from './recording-store.js'
import { copyRequestBody } from './request-body-copy.js'

/*
 * What `record` and `replay` add to a route's pipeline, and only to a route that sets one: a
 * step before the terminal one (the record tap and the body copy the fallback matches on, or
 * the whole answer under `replay: 'only'`), and the forwarder's fallback when the target fails.
 * Under `record: 'missing'` the step first looks for a recording: one that fits answers, and only
 * a request without one goes on to the target (and the record tap).
 */

/** A route's recordings, as the pipeline uses them. */
export interface RouteRecordings {
  /** The step that goes right before the forwarder. */
  readonly step: RouteStep
  /**
   * Replaces the 502/504 of a target that failed (`cause`: why, for the debug line): a replay,
   * or (record only) a mark in the request's exchange that keeps it out of the files.
   */
  readonly fallback: UpstreamFallback | undefined
  /** The step and the fallback share the request's body copy and marks through its exchange: the engine makes one. */
  readonly needsExchange: true
}

/**
 * The route's live record switch (the control board's state for it): read per request, so the
 * inspector turns recording on and off without a restart. `record: undefined` reads as off.
 */
export interface RecordSwitch {
  readonly record: boolean | undefined
}

/**
 * A route's recordings step and fallback; `undefined` for a route with neither `record` nor
 * `replay`, which gets nothing at all. With `live`, the step records while `live.record` is
 * true (a route with `replay: 'fallback'` can then record too); without it, as configured.
 * A replayed answer is noted in the request's exchange, so the debug line names the replay, not
 * the target.
 *
 * @example
 * const recordings = createRouteRecordings(route, store, logger, entry.state)
 * if (recordings) steps.push(recordings.step)
 */
export function createRouteRecordings(
  route: ResolvedForwardRoute,
  store: RecordingStore,
  logger: Logger,
  live: RecordSwitch = { record: route.record !== false },
): RouteRecordings | undefined {
  if (route.record === false && route.replay === undefined) return undefined
  const missing = route.record === 'missing'
  const replayer = route.replay === undefined && !missing ? undefined : createReplayer(route, store, logger)
  if (route.replay === 'only' && replayer !== undefined)
    return { step: replayer.step, fallback: undefined, needsExchange: true }
  // Built once whatever the switch says: turning it on later costs no set-up per request.
  const tap = createRecordTap(route, store, logger)
  const { maxBodyBytes } = store.options
  const forward: RouteStep = function recordingsStep(req, res, next, path, exchange) {
    // The engine gives a route with recordings an exchange (`needsExchange`); a caller outside
    // it gets one here, which the fallback does not see.
    const own = exchange ?? newExchange()
    if (live.record === true) tap.begin(req, res, path, own)
    else if (replayer !== undefined) copyRequestBody(req, maxBodyBytes, own)
    next()
  }
  return {
    step:
      missing && replayer !== undefined
        ? function recordMissingStep(req, res, next, path, exchange) {
            const own = exchange ?? newExchange()
            void replayer.replayIfRecorded(req, res, path, own).then((answered) => {
              if (!answered) forward(req, res, next, path, own)
            })
          }
        : forward,
    needsExchange: true,
    async fallback(req, res, cause, at) {
      if (at.exchange !== undefined) at.exchange.notFromTarget = true
      if (replayer === undefined || route.replay === undefined) return false
      await replayer.fallback(req, res, cause, at)
      return true
    },
  }
}
