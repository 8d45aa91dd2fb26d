import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseRecording, type RecordingFile } from './recording-format.js'

/*
 * What a store knows of a route's whole folder: its recordings (read once, then kept up to date
 * by the store's own appends), the sequence number the next answer recorded gets (one counter
 * across the route's files, continuing after the highest number on disk), and the sequence
 * numbers of its recorded writes, which the replay's state follows (session-order.ts). A file
 * edited by hand while the proxy runs is seen by the exact match at once (it reads the file),
 * and by these lists at the next start.
 */

/** The methods whose answers move the replay's state. */
const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Whether `method` changes the backend's state (`POST`, `PUT`, `PATCH`, `DELETE`, in any case).
 *
 * @example
 * isWrite('patch') // true
 */
export function isWrite(method: string): boolean {
  return WRITES.has(method.toUpperCase())
}

/** One recording of a route, under its file name. */
export interface IndexedRecording {
  readonly name: string
  readonly recording: RecordingFile
}

/** A route folder's recordings, sequence counter and writes. */
export interface RouteIndex {
  /** Every recording of the route, by file name. */
  recordings(): Promise<readonly IndexedRecording[]>
  /** The sequence numbers of the route's recorded writes, ascending. */
  writes(): Promise<readonly number[]>
  /** Takes the next place in the session, synchronously (the order the exchanges ended in). */
  order(): number
  /** The sequence number of the place `order()` gave, once the highest on disk is known. */
  seqOf(order: number): Promise<number>
  /** Notes a file the store wrote. */
  update(name: string, recording: RecordingFile): void
}

/** Every answer of a recording, with or without a secret. */
function allAnswers(recording: RecordingFile) {
  return [...recording.answers, ...(recording.bySecret ?? []).flatMap((group) => group.answers)]
}

async function readFolder(folder: string): Promise<Map<string, RecordingFile>> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json'))
  const files = new Map<string, RecordingFile>()
  for (const name of names.sort()) {
    const recording = parseRecording(await readFile(join(folder, name), 'utf8').catch(() => ''))
    if (recording !== undefined) files.set(name, recording)
  }
  return files
}

/**
 * The index of the route folder `folder`, read when first asked.
 *
 * @example
 * const index = createRouteIndex('/app/cors-dev-proxy/recordings/api')
 * const seq = await index.seqOf(index.order())
 */
export function createRouteIndex(folder: string): RouteIndex {
  let files: Promise<Map<string, RecordingFile>> | undefined
  let base: Promise<number> | undefined
  let writes: number[] | undefined
  let taken = 0
  const load = () => {
    files ??= readFolder(folder)
    return files
  }
  return {
    async recordings() {
      return [...(await load())].map(([name, recording]) => ({ name, recording }))
    },
    async writes() {
      if (writes !== undefined) return writes
      const found: number[] = []
      for (const recording of (await load()).values()) {
        if (!isWrite(recording.request.method)) continue
        for (const answer of allAnswers(recording)) if (answer.seq !== undefined) found.push(answer.seq)
      }
      writes = found.sort((a, b) => a - b)
      return writes
    },
    order() {
      // The highest number on disk is read before the first answer of this process is written.
      base ??= load().then((known) => {
        let highest = 0
        for (const recording of known.values()) {
          for (const answer of allAnswers(recording)) highest = Math.max(highest, answer.seq ?? 0)
        }
        return highest
      })
      taken += 1
      return taken
    },
    async seqOf(order) {
      return (await (base ?? Promise.resolve(0))) + order
    },
    update(name, recording) {
      if (files === undefined) return
      void files.then((known) => known.set(name, recording))
      writes = undefined
    },
  }
}
