import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { updateFileAtomically } from '../atomic-file.js'
import { routeFolderOf } from '../route-folder.js'
import type { ResolvedRecordingsOptions } from './options/resolve-recordings-options.js'
import { recordedAnswer } from './recorded-answer.js'
import { parseRecording, type RecordingFile, serializeRecording } from './recording-format.js'

/*
 * A route's recordings read and rewritten from outside a running proxy (the CLI's
 * `recordings verify`): every file goes through `parseRecording` and `serializeRecording`, and a
 * live answer through the masking a recorded exchange gets, so a change of the file format or of
 * the masking rules reaches these tools with nothing to change in them.
 */

/** One file of a route's recordings folder. */
export interface RouteRecordingFile {
  /** The file's absolute path. */
  readonly file: string
  /** The recording it holds; `undefined` when it is not one (unreadable, or edited into something else). */
  readonly recording: RecordingFile | undefined
}

/** A route's recordings folder and its files, sorted by name. */
export interface RouteRecordingFolder {
  /** The route's folder, absolute (`<recordings.dir>/<route folder>`). */
  readonly folder: string
  /** Its `.json` files, by name; none when the folder does not exist. */
  readonly files: readonly RouteRecordingFile[]
}

/**
 * Reads every recording of the route `prefix` from the recordings folder (a relative
 * `options.dir` under `base`), each through `parseRecording`.
 *
 * @example
 * const { folder, files } = await readRouteRecordings('/api', resolved.recordings, process.cwd())
 * for (const { file, recording } of files) if (recording) console.log(file, recording.request.method)
 */
export async function readRouteRecordings(
  prefix: string,
  options: ResolvedRecordingsOptions,
  base: string,
): Promise<RouteRecordingFolder> {
  const folder = resolve(base, options.dir, routeFolderOf(prefix))
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json'))
  const files = await Promise.all(
    names.sort().map(async (name) => {
      const file = join(folder, name)
      const text = await readFile(file, 'utf8').catch(() => undefined)
      return { file, recording: text === undefined ? undefined : parseRecording(text) }
    }),
  )
  return { folder, files }
}

/** An answer as a live backend gave it: the body as its bytes arrived (still encoded if `content-encoding` says so). */
export interface LiveAnswer {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Buffer
}

/**
 * Replaces the last answer to the request without a secret in the recording `file` with
 * `live`, masked as a recorded answer is (`options.mask`, `options.maskNames`), under the lock
 * and through the temp file the proxy's own appends use. What else the answer held in the file
 * (its place in the session) and the other answers stay. Resolves `false` when the file is no
 * longer a recording with such an answer, or stayed locked.
 *
 * @example
 * await replaceLastAnswer(file, { status: 200, headers: [['content-type', 'application/json']], body }, resolved.recordings)
 */
export async function replaceLastAnswer(
  file: string,
  live: LiveAnswer,
  options: ResolvedRecordingsOptions,
): Promise<boolean> {
  let replaced = false
  // Only what describes the answer is replaced: what else the file keeps of it (its place in
  // the session) stays as it was.
  const { status, headers, body, chunks, recordedAt } = recordedAnswer(
    { ...live, chunks: [[live.body, 0]], headAt: 0 },
    options,
  )
  const written = await updateFileAtomically(file, (current) => {
    const recording = current === undefined ? undefined : parseRecording(current)
    const last = recording?.answers.at(-1)
    if (recording === undefined || last === undefined) return undefined
    replaced = true
    return serializeRecording({
      ...recording,
      answers: [...recording.answers.slice(0, -1), { ...last, status, headers, body, chunks, recordedAt }],
    })
  })
  return written && replaced
}
