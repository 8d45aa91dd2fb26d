import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { FailedAt } from '../../forward/forward-context.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { Logger } from '../../log/logger.js'
import type { RouteStep } from '../../pipeline/route-pipeline.js'
import { markNotFromTarget, relativePath } from './record-tap.js'
import { requestKey } from './recording-key.js'
import type { RecordingStore } from './recording-store.js'
import { replayAnswer } from './replay-answer.js'
import { copyRequestBody } from './request-body-copy.js'

/*
 * Answers a route's requests from its recordings: the file of the request's key (method, path,
 * query in any order, body as data), its answers in the order recorded, then the last one
 * again. No recording: 504 under `replay: 'fallback'` (the target failed and nothing stands in
 * for it), 404 under `replay: 'only'`, naming the closest recording and how to record one.
 */

/** A route's replayer. */
export interface Replayer {
  /** The step of `replay: 'only'`: every request answered from the recordings, the target never contacted. */
  readonly step: RouteStep
  /**
   * Under `replay: 'fallback'`, once the target could not be reached or timed out (`cause`, as
   * the failure's log line says it): answers, never throws.
   */
  fallback(req: ProxyRequest, res: ProxyResponse, cause: string, at: FailedAt): Promise<void>
}

/**
 * Creates the replayer of a route. Each request it answers is noted in its exchange as answered
 * by the replay (`replay`, or `replay (target failed: connection refused)`): the debug line must not
 * name a target that did not answer.
 *
 * @example
 * const replayer = createReplayer(route, store, logger)
 * steps.push(replayer.step) // replay: 'only'
 */
export function createReplayer(route: ResolvedForwardRoute, store: RecordingStore, logger: Logger): Replayer {
  const { prefix } = route
  const ctx: ReplayerContext = { prefix, store, logger, served: new Map() }

  return {
    step: function replayOnlyStep(req, res, _next, path, exchange) {
      if (exchange !== undefined) exchange.hop = 'replay'
      answerFromRecordings(ctx, req, res, path, 'only').catch((error: unknown) => failReplay(ctx, res, error))
    },
    async fallback(req, res, cause, { path, exchange }) {
      // Over the target's URL the forwarder noted: the target failed, the recordings answer.
      if (exchange !== undefined) exchange.hop = `replay (target failed: ${cause})`
      logger.limited(
        'warn',
        `replay ${prefix} fallback`,
        () =>
          `route '${prefix}': the target is unreachable; answering from the recordings (replay: 'fallback')`,
      )
      await answerFromRecordings(ctx, req, res, path, 'fallback').catch((error: unknown) =>
        failReplay(ctx, res, error),
      )
    },
  }
}

/** What one route's replayer keeps: its store, and how many answers each recording has served. */
interface ReplayerContext {
  readonly prefix: string
  readonly store: RecordingStore
  readonly logger: Logger
  /** Per file and secret group, the answers served so far (they replay in order, then the last again). */
  readonly served: Map<string, number>
}

/** Answers a request from its recording (the next of its answers), or says none matches. */
async function answerFromRecordings(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  mode: 'fallback' | 'only',
): Promise<void> {
  const { store, prefix, logger, served } = ctx
  markNotFromTarget(res)
  const body = await copyRequestBody(req, store.options.maxBodyBytes)()
  const method = req.method ?? 'GET'
  const relative = relativePath(prefix, path)
  const key = requestKey(
    {
      method,
      path: relative,
      body,
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
    },
    store.options,
  )
  const recording = await store.read(prefix, key)
  // A secret is checked against the file's verifiers only once its key has a file.
  const matched = recording === undefined ? undefined : await store.answersFor(recording, key)
  if (res.destroyed || res.headersSent) return
  const file = store.describe(prefix, key)
  if (matched === undefined || matched.answers.length === 0) {
    await answerNoMatch(ctx, req, res, relative, mode)
    return
  }
  // Counted per secret: the right password's answers replay in order whatever the wrong one got.
  const counter = `${key.fileName}\n${matched.group}`
  const index = served.get(counter) ?? 0
  served.set(counter, index + 1)
  const { answers } = matched
  const recorded = answers[Math.min(index, answers.length - 1)]
  if (recorded === undefined) return
  logger.debug(
    `replayed ${method} ${req.url} from ${file} (answer ${Math.min(index, answers.length - 1) + 1} of ${answers.length})`,
  )
  replayAnswer(res, recorded, file, store.options.maxGap)
}

/** No recording for the request: 504 under `replay: 'fallback'`, 404 under `replay: 'only'`, naming the closest. */
async function answerNoMatch(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  relative: string,
  mode: 'fallback' | 'only',
): Promise<void> {
  const { store, prefix, logger } = ctx
  const method = req.method ?? 'GET'
  const closest = await store.closest(prefix, method, relative)
  const status = mode === 'fallback' ? 504 : 404
  const why =
    mode === 'fallback'
      ? `the target of route '${prefix}' did not answer and no recording matches ${method} ${req.url}`
      : `no recording matches ${method} ${req.url} (route '${prefix}' has replay: 'only')`
  const near =
    closest === undefined ? 'There is no recording for this route yet.' : `Closest recording: ${closest}.`
  logger.limited('warn', `replay ${prefix} no match`, () => `${status} ${method} ${req.url}: ${why}`)
  if (res.destroyed || res.headersSent) return
  // A marker for test fixtures (@cors-dev-proxy/playwright), whatever the body's wording.
  res.setHeader('x-cors-dev-proxy-unmatched', '1')
  sendText(
    res,
    status,
    'text/plain; charset=utf-8',
    `cors-dev-proxy: ${why}. ${near} To record it, set record: true on route '${prefix}' with its target up and make the call once, or import a HAR: cors-dev-proxy import-har file.har --route ${prefix}\n`,
  )
}

/** A replay that threw: a 500 (or the answer cut short) and one log line. */
function failReplay(ctx: ReplayerContext, res: ProxyResponse, error: unknown): void {
  const { prefix } = ctx
  ctx.logger.limited(
    'error',
    `replay ${prefix}`,
    () => `replay failed on route '${prefix}': ${error instanceof Error ? error.message : String(error)}`,
  )
  if (!res.headersSent) sendText(res, 500, 'text/plain; charset=utf-8', 'cors-dev-proxy: replay failed\n')
  else res.end()
}
