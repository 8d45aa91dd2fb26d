/*
 * The recording file: one per distinct request (see recording-key.ts), holding its answers in
 * the order they were recorded. Written with a fixed key order and sorted headers so a diff
 * shows what changed and nothing else (a field sent twice, two `Set-Cookie` lines, as an array); bodies as text, as JSON data in the order the backend
 * sent its keys, or as base64 when they are not UTF-8 text or are encoded (gzip).
 *
 * Version 2 adds `bySecret`: the answers to the same request with a secret (a password, Basic
 * credentials), one group per secret, each under a verifier of it (see secret-verifier.ts);
 * `answers` then holds the answers to the request without one. A version 1 file (no `bySecret`)
 * reads as it did: its `answers` answer the request whatever its secret.
 *
 * Version 3 adds `seq` to each answer: its place in the route's recorded session, one counter
 * across all the route's files (calls a millisecond apart never tie), which replay follows to
 * give the answers the recorded state calls for (see session-order.ts). A file of version 1 or 2
 * (answers without `seq`) replays as it did: its answers in order, then the last again.
 */

/** The version of the file format, written first in each file. */
export const RECORDING_FORMAT = 3

/** The group of answers recorded from a request whose secret was masked already (an inspector HAR): it cannot be verified. */
export const MASKED_SECRET = 'masked'

/** A request as its recording file names it (secrets already masked). */
export interface RecordedRequest {
  readonly method: string
  /** The path relative to the route's prefix, with the query as it came (secret values masked). */
  readonly path: string
  /** What the match compares the body on (see `requestKey`); `undefined`: no body. */
  readonly body: string | undefined
  /** The headers the route's `match.matchHeaders` named (version 3), secret values masked. */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** A body as stored: text, JSON data, or base64 bytes. */
export type RecordedBody =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'json'; readonly json: unknown }
  | { readonly kind: 'base64'; readonly base64: string }

/** One piece of an event stream, with the milliseconds since the previous piece. */
export interface RecordedChunk {
  readonly after: number
  readonly text: string
}

/** One answer to the request. */
export interface RecordedAnswer {
  readonly status: number
  /** Lower-case names, sorted by name (stable order), values masked. */
  readonly headers: readonly (readonly [string, string])[]
  /** The body; `undefined` for an event stream (see `chunks`) or no body. */
  readonly body: RecordedBody | undefined
  /** An event stream's pieces in order, with their gaps; `undefined` for other answers. */
  readonly chunks: readonly RecordedChunk[] | undefined
  /** ISO time of the recording (or the HAR entry's `startedDateTime`). */
  readonly recordedAt: string
  /** Its place in the route's recorded session (version 3); `undefined` in older files. */
  readonly seq?: number | undefined
}

/** The answers to one secret of a request. */
export interface SecretAnswers {
  /** `scrypt$ln=…,r=…,p=…$<salt>$<hash>` of the secret, or `masked` (see `MASKED_SECRET`). */
  readonly verifier: string
  readonly answers: readonly RecordedAnswer[]
}

/** A whole recording file. */
export interface RecordingFile {
  /** The version the file was written in; `RECORDING_FORMAT` when omitted (a new file). */
  readonly version?: number
  readonly request: RecordedRequest
  /** The answers to the request without a secret (version 1: with any). */
  readonly answers: readonly RecordedAnswer[]
  /** The answers to the request with a secret, one group per secret (none when omitted). */
  readonly bySecret?: readonly SecretAnswers[]
}

function bodyJson(body: RecordedBody): Record<string, unknown> {
  if (body.kind === 'text') return { text: body.text }
  if (body.kind === 'json') return { json: body.json }
  return { base64: body.base64 }
}

/**
 * A recording as the text of its file: keys in a fixed order, headers sorted, two-space indent,
 * a final newline.
 *
 * @example
 * await writeFile(file, serializeRecording({ request, answers: [answer] }))
 */
export function serializeRecording(file: RecordingFile): string {
  const request = {
    method: file.request.method,
    path: file.request.path,
    ...(file.request.body === undefined ? {} : { body: file.request.body }),
    ...(file.request.headers === undefined ? {} : { headers: file.request.headers }),
  }
  const bySecret = (file.bySecret ?? []).map(({ verifier, answers }) => ({
    verifier,
    answers: answers.map(answerJson),
  }))
  const text = JSON.stringify(
    {
      version: RECORDING_FORMAT,
      request,
      answers: file.answers.map(answerJson),
      ...(bySecret.length === 0 ? {} : { bySecret }),
    },
    null,
    2,
  )
  return `${text}\n`
}

/**
 * Header pairs as the file holds them: sorted by name, a field sent more than once (two
 * `Set-Cookie` lines) as an array of its values in the order they came, any other as a string.
 */
function headersJson(pairs: readonly (readonly [string, string])[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const previous = out[name]
    if (previous === undefined) out[name] = value
    else out[name] = Array.isArray(previous) ? [...previous, value] : [previous, value]
  }
  return out
}

/** One answer as its file holds it: headers sorted; a JSON body's keys as the backend sent them. */
function answerJson(answer: RecordedAnswer): Record<string, unknown> {
  return {
    ...(answer.seq === undefined ? {} : { seq: answer.seq }),
    status: answer.status,
    headers: headersJson(answer.headers),
    ...(answer.body === undefined ? {} : { body: bodyJson(answer.body) }),
    ...(answer.chunks === undefined
      ? {}
      : { chunks: answer.chunks.map(({ after, text }) => ({ after, text })) }),
    recordedAt: answer.recordedAt,
  }
}

function parseBody(value: unknown): RecordedBody | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const body = value as Record<string, unknown>
  if (typeof body.text === 'string') return { kind: 'text', text: body.text }
  if (typeof body.base64 === 'string') return { kind: 'base64', base64: body.base64 }
  if ('json' in body) return { kind: 'json', json: body.json }
  return undefined
}

function parseAnswer(value: unknown): RecordedAnswer | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const answer = value as Record<string, unknown>
  if (typeof answer.status !== 'number' || answer.status < 100 || answer.status > 599) return undefined
  const headers: [string, string][] = []
  if (answer.headers !== null && typeof answer.headers === 'object') {
    for (const [name, inner] of Object.entries(answer.headers)) {
      const lower = name.toLowerCase()
      if (typeof inner === 'string') headers.push([lower, inner])
      else if (Array.isArray(inner))
        for (const one of inner) if (typeof one === 'string') headers.push([lower, one])
    }
  }
  const chunks = Array.isArray(answer.chunks)
    ? answer.chunks.flatMap((chunk: unknown) => {
        const { after, text } = (chunk ?? {}) as Record<string, unknown>
        return typeof text === 'string'
          ? [{ after: typeof after === 'number' && after > 0 ? after : 0, text }]
          : []
      })
    : undefined
  return {
    status: answer.status,
    headers,
    body: parseBody(answer.body),
    chunks,
    recordedAt: typeof answer.recordedAt === 'string' ? answer.recordedAt : '',
    seq: Number.isSafeInteger(answer.seq) && (answer.seq as number) > 0 ? (answer.seq as number) : undefined,
  }
}

/**
 * A recording file's text read back; `undefined` when it is not one (a file edited into
 * something else is skipped, never thrown at request time).
 *
 * @example
 * const recording = parseRecording(await readFile(file, 'utf8'))
 */
export function parseRecording(text: string): RecordingFile | undefined {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return undefined
  }
  if (data === null || typeof data !== 'object') return undefined
  const { version, request, answers, bySecret } = data as Record<string, unknown>
  if (request === null || typeof request !== 'object' || !Array.isArray(answers)) return undefined
  const { method, path, body, headers } = request as Record<string, unknown>
  if (typeof method !== 'string' || typeof path !== 'string') return undefined
  const named =
    headers !== null && typeof headers === 'object'
      ? Object.fromEntries(Object.entries(headers).filter(([, value]) => typeof value === 'string'))
      : undefined
  return {
    // A file without a version predates the field: the first format.
    version: typeof version === 'number' ? version : 1,
    request: { method, path, body: typeof body === 'string' ? body : undefined, headers: named },
    answers: answers.flatMap((answer) => parseAnswer(answer) ?? []),
    bySecret: Array.isArray(bySecret) ? bySecret.flatMap((group) => parseGroup(group) ?? []) : [],
  }
}

function parseGroup(value: unknown): SecretAnswers | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const { verifier, answers } = value as Record<string, unknown>
  if (typeof verifier !== 'string' || !Array.isArray(answers)) return undefined
  return { verifier, answers: answers.flatMap((answer) => parseAnswer(answer) ?? []) }
}
