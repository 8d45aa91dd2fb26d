import { readFile, stat } from 'node:fs/promises'
import { parseRecording, type RecordingFile } from './recording-format.js'

/*
 * The recording files a replay reads on every request, parsed once while they stay the same. A
 * replayed call read and parsed its file each time (open, fstat, read, close and a JSON parse:
 * about half of a replayed GET's CPU, twice a forwarded one's); now one `stat` tells whether the
 * file is still the one parsed: the same inode (the store and other processes replace a file by
 * a rename), size and modification time (a hand edit in place). Only small files are kept, and
 * only so many, so the cache never holds a large recording's bodies.
 */

/** The largest file kept parsed, in bytes: a recording of large bodies is read each time. */
const MAX_CACHED_BYTES = 256 * 1024

/** How many files are kept parsed; the oldest kept is dropped first. */
const MAX_CACHED_FILES = 256

interface Parsed {
  readonly ino: number
  readonly size: number
  readonly mtimeMs: number
  readonly recording: RecordingFile | undefined
}

/** Reads a recording file (`undefined` when it is missing or not a recording). */
export type RecordingReader = (file: string) => Promise<RecordingFile | undefined>

/**
 * A reader that parses a file again only when it changed on disk.
 *
 * @example
 * const read = createRecordingReader()
 * const recording = await read('/app/cors-dev-proxy/recordings/api/GET-items.json')
 */
export function createRecordingReader(): RecordingReader {
  const parsed = new Map<string, Parsed>()
  return async (file) => {
    const info = await stat(file).catch(() => undefined)
    if (info === undefined) {
      parsed.delete(file)
      return undefined
    }
    const known = parsed.get(file)
    if (
      known !== undefined &&
      known.ino === info.ino &&
      known.size === info.size &&
      known.mtimeMs === info.mtimeMs
    )
      return known.recording
    const text = await readFile(file, 'utf8').catch(() => undefined)
    const recording = text === undefined ? undefined : parseRecording(text)
    parsed.delete(file)
    if (text !== undefined && info.size <= MAX_CACHED_BYTES) {
      parsed.set(file, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, recording })
      if (parsed.size > MAX_CACHED_FILES) parsed.delete(parsed.keys().next().value as string)
    }
    return recording
  }
}
