import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { FailedAt } from '../../forward/forward-context.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { Logger } from '../../log/logger.js'
import type { Exchange } from '../../pipeline/exchange.js'
import type { RouteStep } from '../../pipeline/route-pipeline.js'
import { findRecording } from './find-recording.js'
import type { RequestKey } from './recording-key.js'
import type { RecordingStore } from './recording-store.js'
import { replayAnswer } from './replay-answer.js'
import { copyRequestBody } from './request-body-copy.js'
import { isWrite } from './route-index.js'
import { relativePath, routeKey } from './route-key.js'
import type { MatchedAnswers } from './secret-answers.js'
import { pickAnswer, type SessionState } from './session-order.js'
import { answerUnmatched, UNMATCHED_HEADER } from './unmatched-answer.js'

/*
 * Answers a route's requests from its recordings: the file of the request's key (method, path,
 * query in any order, body as data), and among its answers the one the recorded session's state
 * calls for (session-order.ts). The session starts over with each replayer, that is at each
 * start of the proxy. No recording: 504 under `replay: 'fallback'` (the target failed and nothing
 * stands in for it), naming the closest recording; 404 under `replay: 'only'`, with how the
 * request differs from the closest one (unmatched-answer.ts). Under `record: 'missing'`, once a
 * write with no recording has gone to the target the recorded state is behind the backend's, so
 * every later request goes to the target too (and is recorded) until the proxy restarts.
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
  /**
   * Under `record: 'missing'`: answers from the recordings when one fits and resolves true;
   * else resolves false, the request left to the forwarder (and the record tap).
   */
  replayIfRecorded(
    req: ProxyRequest,
    res: ProxyResponse,
    path: string,
    exchange: Exchange | undefined,
  ): Promise<boolean>
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
  const ctx: ReplayerContext = {
    route,
    prefix,
    store,
    logger,
    session: { position: 0, served: new Map() },
    live: false,
  }

  return {
    step: function replayOnlyStep(req, res, _next, path, exchange) {
      if (exchange !== undefined) exchange.hop = 'replay'
      answerFromRecordings(ctx, req, res, path, 'only', exchange).catch((error: unknown) =>
        failReplay(ctx, res, error),
      )
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
      await answerFromRecordings(ctx, req, res, path, 'fallback', exchange).catch((error: unknown) =>
        failReplay(ctx, res, error),
      )
    },
    replayIfRecorded(req, res, path, exchange) {
      return replayIfRecorded(ctx, req, res, path, exchange).catch((error: unknown) => {
        failReplay(ctx, res, error)
        return true
      })
    },
  }
}

/** What one route's replayer keeps: its store, and its place in the recorded session. */
interface ReplayerContext {
  readonly route: ResolvedForwardRoute
  readonly prefix: string
  readonly store: RecordingStore
  readonly logger: Logger
  readonly session: SessionState
  /**
   * Under `record: 'missing'`: a write went to the target, so the backend's state is no longer
   * the recorded session's, and no recorded answer after it can be trusted (a list recorded
   * before a create would hide the created item): every later request is forwarded and recorded.
   */
  live: boolean
}

/** What the recordings hold for a request: its key, its body, and the answers that fit it. */
interface Lookup {
  readonly key: RequestKey
  /** The request body as read (`undefined`: over `maxBodyBytes`). */
  readonly body: Buffer | undefined
  /** The file that answers, and its answers for the request's secret. */
  readonly found: { readonly name: string; readonly matched: MatchedAnswers } | undefined
}

/** Reads the request's body and finds its recording (see find-recording.ts). */
async function lookUp(
  ctx: ReplayerContext,
  req: ProxyRequest,
  path: string,
  exchange: Exchange | undefined,
): Promise<Lookup> {
  const { store, route, logger } = ctx
  const body = await copyRequestBody(req, store.options.maxBodyBytes, exchange)()
  const key = routeKey(route, store.options, req, path, body)
  const recording = await findRecording(store, route.prefix, route.match, req, key, logger)
  // A secret is checked against the file's verifiers only once its key has a file.
  const matched = recording === undefined ? undefined : await store.answersFor(recording.recording, key)
  const found =
    recording === undefined || matched === undefined || matched.answers.length === 0
      ? undefined
      : { name: recording.name, matched }
  return { key, body, found }
}

/** Replays the answer the session calls for among the found ones. */
async function serve(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  key: RequestKey,
  found: NonNullable<Lookup['found']>,
): Promise<void> {
  const { store, prefix, logger, session } = ctx
  const method = req.method ?? 'GET'
  const file = store.describe(prefix, { ...key, fileName: found.name })
  // Counted per secret: the right password's answers replay in order whatever the wrong one got.
  const counter = `${found.name}\n${found.matched.group}`
  const write = isWrite(method)
  const writes = write ? [] : await store.index(prefix).writes()
  const picked = pickAnswer(session, write, counter, found.matched.answers, writes)
  if (picked === undefined || res.destroyed || res.headersSent) return
  logger.debug(`replayed ${method} ${req.url} from ${file} (answer ${picked.index + 1} of ${picked.of})`)
  replayAnswer(res, picked.answer, file, store.options.maxGap)
}

/** Answers a request from its recording (the answer its state calls for), or says none matches. */
async function answerFromRecordings(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  mode: 'fallback' | 'only',
  exchange: Exchange | undefined,
): Promise<void> {
  if (exchange !== undefined) exchange.notFromTarget = true
  const { key, found } = await lookUp(ctx, req, path, exchange)
  if (res.destroyed || res.headersSent) return
  if (found !== undefined) await serve(ctx, req, res, key, found)
  else if (mode === 'only') await answerUnmatched(ctx.route, ctx.store, ctx.logger, req, res, key)
  else await answerNoMatch(ctx, req, res, relativePath(ctx.prefix, path))
}

/**
 * Under `record: 'missing'`: answers from the recordings when one fits (true); else (false)
 * leaves the request to the forwarder, its body (read to find the key) kept as `req.body`.
 */
async function replayIfRecorded(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  exchange: Exchange | undefined,
): Promise<boolean> {
  if (ctx.live) return false
  const { key, body, found } = await lookUp(ctx, req, path, exchange)
  if (found !== undefined) {
    if (exchange !== undefined) {
      exchange.notFromTarget = true
      exchange.hop = 'replay'
    }
    if (!res.destroyed && !res.headersSent) await serve(ctx, req, res, key, found)
    return true
  }
  const carrier = req as { body?: unknown }
  if (body === undefined) {
    if (exchange !== undefined) exchange.notFromTarget = true
    sendText(
      res,
      413,
      'text/plain; charset=utf-8',
      `cors-dev-proxy: route '${ctx.prefix}' has record: 'missing', which reads a body to find its recording; this one is larger than recordings.maxBodyBytes (${ctx.store.options.maxBodyBytes} bytes)\n`,
    )
    return true
  }
  // The stream was read to find the key: the forwarder sends these bytes, as after a body parser.
  if (req.readableEnded && carrier.body === undefined) carrier.body = body
  if (isWrite(req.method ?? 'GET')) goLive(ctx, req)
  return false
}

/** A write with no recording goes to the target: from now on the route forwards and records everything. */
function goLive(ctx: ReplayerContext, req: ProxyRequest): void {
  ctx.live = true
  ctx.logger.info(
    `route '${ctx.prefix}': ${req.method} ${req.url} has no recording and went to the target, which now holds a state the recordings do not: record: 'missing' forwards and records every call after it until the proxy restarts`,
  )
}

/** No recording for the request once the target failed (`replay: 'fallback'`): 504, naming the closest. */
async function answerNoMatch(
  ctx: ReplayerContext,
  req: ProxyRequest,
  res: ProxyResponse,
  relative: string,
): Promise<void> {
  const { store, prefix, logger } = ctx
  const method = req.method ?? 'GET'
  const closest = await store.closest(prefix, method, relative)
  const why = `the target of route '${prefix}' did not answer and no recording matches ${method} ${req.url}`
  const near =
    closest === undefined ? 'There is no recording for this route yet.' : `Closest recording: ${closest}.`
  logger.limited('warn', `replay ${prefix} no match`, () => `504 ${method} ${req.url}: ${why}`)
  if (res.destroyed || res.headersSent) return
  // The mark of an unmatched call, as under replay: 'only' (test fixtures read it).
  res.setHeader(UNMATCHED_HEADER, '1')
  sendText(
    res,
    504,
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
