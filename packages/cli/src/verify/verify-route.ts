/*
 * verify/: `cors-dev-proxy recordings verify`, the drift check. verify-route.ts reads a route's
 * recordings through the core (`readRouteRecordings`, the parser the replay uses), picks the
 * requests it may send again (`GET` and `HEAD` without a body or a secret that is not on disk:
 * never one with side effects), sends each to the live target (live-request.ts), and compares
 * the answer with the LAST recorded answer to the same request (the newest state the recordings
 * know) by status class, media type and JSON structure (answer-content.ts, answer-changes.ts,
 * structure-diff.ts). `--update` replaces that last answer through the core
 * (`replaceLastAnswer`), masked as a recording is. verify-report.ts prints the result.
 */
import type { RecordingFile, ResolvedRecordingsOptions } from '@cors-dev-proxy/core/adapter'
import { readRouteRecordings, replaceLastAnswer } from '@cors-dev-proxy/core/adapter'
import { type AnswerChange, answerChanges } from './answer-changes.js'
import { liveContent, recordedContent } from './answer-content.js'
import { liveUrl, sendSafeRequest } from './live-request.js'

/** What the check is run with. */
export interface VerifyOptions {
  /** The route's prefix, normalised (`/api`). */
  readonly prefix: string
  /** Where the route forwards: each recorded path (relative to the prefix) is appended to its path. */
  readonly target: URL
  readonly recordings: ResolvedRecordingsOptions
  /** The directory a relative `recordings.dir` is under. */
  readonly base: string
  /** Compare values too (`--values`). */
  readonly values: boolean
  /** Rewrite what drifted (`--update`). */
  readonly update: boolean
  /** Headers sent with every request (`--header`), never written anywhere. */
  readonly headers: Readonly<Record<string, string>>
  /** Milliseconds a request may go without a byte before it counts as unanswered (`--timeout`). */
  readonly timeout: number
}

/** What happened to one recorded request. */
export type VerifyOutcome =
  | { readonly kind: 'unchanged'; readonly method: string; readonly path: string; readonly file: string }
  | {
      readonly kind: 'drifted'
      readonly method: string
      readonly path: string
      readonly file: string
      readonly changes: readonly AnswerChange[]
      /** Whether `--update` rewrote its recording. */
      readonly updated: boolean
    }
  | {
      readonly kind: 'skipped'
      readonly method: string
      readonly path: string
      readonly file: string
      /**
       * `side-effects`: a method other than GET and HEAD; `secret`: answers to a password or
       * Basic credentials, not on disk; `masked-query`: a query value masked in the file; `body`:
       * a GET with a body; `no-answer`: none recorded.
       */
      readonly reason: 'side-effects' | 'secret' | 'masked-query' | 'body' | 'no-answer'
    }
  | {
      readonly kind: 'failed'
      readonly method: string
      readonly path: string
      readonly file: string
      readonly error: string
    }
  | { readonly kind: 'unreadable'; readonly file: string }

/** A whole check: the route's folder and an outcome per recorded request, in file order. */
export interface VerifyResult {
  readonly folder: string
  readonly files: number
  readonly outcomes: readonly VerifyOutcome[]
}

/** Methods that only read: RFC 9110 §9.2.1's safe methods, without OPTIONS and TRACE, which are never recorded answers worth comparing. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD'])

/** A masked query value (`[masked]`, or percent-encoded): the real one is not on disk. */
const MASKED_IN_PATH = /\[masked\]|%5Bmasked%5D/i

/** Why a recorded request is not sent again, or `undefined` when it is sent. */
function skipReason(
  recording: RecordingFile,
): Extract<VerifyOutcome, { kind: 'skipped' }>['reason'] | undefined {
  const { method, path, body } = recording.request
  if (!SAFE_METHODS.has(method)) return 'side-effects'
  if (body !== undefined) return 'body'
  if (MASKED_IN_PATH.test(path)) return 'masked-query'
  if (recording.answers.length === 0) return (recording.bySecret ?? []).length > 0 ? 'secret' : 'no-answer'
  return undefined
}

function acceptOf(type: string | undefined): string {
  return type === undefined ? '*/*' : `${type}, */*;q=0.8`
}

/** Sends one request again and compares; `--update` rewrites its recording when it drifted. */
async function verifyOne(
  file: string,
  recording: RecordingFile,
  options: VerifyOptions,
): Promise<VerifyOutcome> {
  const { method, path } = recording.request
  const last = recording.answers.at(-1)
  if (last === undefined) return { kind: 'skipped', method, path, file, reason: 'no-answer' }
  const recorded = recordedContent(last)
  const live = await sendSafeRequest(
    method as 'GET' | 'HEAD',
    liveUrl(options.target, path),
    {
      accept: acceptOf(recorded.type),
      ...options.headers,
    },
    options.timeout,
  )
  if ('failure' in live) return { kind: 'failed', method, path, file, error: live.failure }
  const changes = answerChanges(recorded, liveContent(live), options.values)
  if (changes.length === 0) return { kind: 'unchanged', method, path, file }
  const updated = options.update && (await replaceLastAnswer(file, live, options.recordings))
  return { kind: 'drifted', method, path, file, changes, updated }
}

/**
 * Checks every recording of the route against the live target, one request at a time (a
 * backend under test is not load-tested), and resolves with an outcome per request; a file
 * whose answers to a secret cannot be resent has a `skipped` outcome for those beside the
 * outcome of its other answers. Never sends a method other than `GET` or `HEAD`.
 *
 * @example
 * const result = await verifyRoute({ prefix: '/api', target: new URL('http://127.0.0.1:3000'), recordings, base: cwd, values: false, update: false, headers: {}, timeout: 30_000 })
 */
export async function verifyRoute(options: VerifyOptions): Promise<VerifyResult> {
  const { folder, files } = await readRouteRecordings(options.prefix, options.recordings, options.base)
  const outcomes: VerifyOutcome[] = []
  for (const { file, recording } of files) {
    if (recording === undefined) {
      outcomes.push({ kind: 'unreadable', file })
      continue
    }
    const { method, path } = recording.request
    const reason = skipReason(recording)
    if (reason !== undefined) {
      outcomes.push({ kind: 'skipped', method, path, file, reason })
      continue
    }
    outcomes.push(await verifyOne(file, recording, options))
    if ((recording.bySecret ?? []).length > 0)
      outcomes.push({ kind: 'skipped', method, path, file, reason: 'secret' })
  }
  return { folder, files: files.length, outcomes }
}
