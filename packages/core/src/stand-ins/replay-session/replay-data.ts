import type { RecordedBody, RecordedChunk } from '../recordings/recording-format.js'

/*
 * The data a replay session answers from, in memory: what `cors-dev-proxy export-msw` inlines
 * in the module it writes (see export-replay-data.ts), read from a route's recordings and mock
 * files. Plain JSON, so it travels to the browser; no secret in it (recordings hold none, and
 * the answers grouped by a secret are left out: they are told apart by a verifier only the
 * proxy checks).
 */

/** A route's `match` rules as a session applies them (a `match` function is the caller's, see `ReplayOptions`). */
export interface ReplayMatchRules {
  readonly ignoreQuery: readonly string[]
  /** Lower-case header names the match compares. */
  readonly matchHeaders: readonly string[]
  readonly body: 'exact' | 'subset'
}

/** One recording file: its request as the file names it, and its answers to that request without a secret. */
export interface ReplayRecording {
  /** The file's name in the route's recordings folder (the answers' `x-cors-dev-proxy-replayed`). */
  readonly file: string
  readonly method: string
  /** The path after the prefix, with its query (secret values masked). */
  readonly path: string
  /** The body as the key compares it (`json {…}`, `form a=1`, text); absent without a body. */
  readonly body?: string
  /** The headers `match.matchHeaders` named, secret values masked. */
  readonly headers?: Readonly<Record<string, string>>
  readonly answers: readonly ReplayAnswer[]
}

/** One recorded answer, as the recording file holds it (fields without a value left out). */
export interface ReplayAnswer {
  /** Its place in the recorded session (format version 3); absent in older files. */
  readonly seq?: number
  readonly status: number
  /** Lower-case names, sorted, values masked. */
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: RecordedBody
  /** An event stream's pieces, with their gaps in ms. */
  readonly chunks?: readonly RecordedChunk[]
  readonly recordedAt?: string
}

/** A mocked answer as a mock file (or a fixed `mocks` key of the config) gives it. */
export interface ReplayMock {
  /** `'GET /users/:id'` or `'/health'`, relative to the prefix. */
  readonly key: string
  /** Where it comes from: the mock file's path, or the config's key. */
  readonly source: string
  readonly status: number
  /** Lower-case names; a repeated field as an array. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>
  /** The body: UTF-8 text, or base64 for other bytes. */
  readonly body: { readonly text: string } | { readonly base64: string }
}

/** What a session answers from: one route's mocks and recordings. */
export interface ReplayData {
  /** The route's prefix (`/api`); a request's path after it is what is matched. */
  readonly prefix: string
  /** Field names masked besides the built-in rules (`recordings.maskNames`), so keys compare as recorded. */
  readonly maskNames: readonly string[]
  /** Longest pause between an event stream's pieces, in ms (`recordings.maxGap`). */
  readonly maxGap: number
  readonly match: ReplayMatchRules
  /** Mock files (the most specific first), then the config's fixed keys in the order written. */
  readonly mocks: readonly ReplayMock[]
  /** By file name. */
  readonly recordings: readonly ReplayRecording[]
  /** The sequence numbers of the exported writes' answers, ascending (the session's state follows them). */
  readonly writes: readonly number[]
}
