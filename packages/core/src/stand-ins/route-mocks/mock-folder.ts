import type { Stats } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { PathPattern } from '../../http/path-pattern.js'
import { updateFileAtomically } from '../atomic-file.js'
import { compareMockKeys, compileMockKey, mockFileName, mockKeyOf } from './mock-file-name.js'
import { type MockAnswerProblem, mockAnswerOf, type ResolvedMockAnswer } from './options/route-mock-answer.js'

/*
 * A route's mock files, read again when they change, without a restart and without a watcher:
 * each request stats the folder (a file added, removed or renamed into place changes its mtime)
 * and the file it matches (an edit in place changes that file's). A stat is a few microseconds
 * and is only paid on routes with `mocks`. It also holds where `fs.watch` does not (network
 * and container file systems), and an edit is seen by the very next request after the write:
 * a watcher's event can come after it.
 *
 * Timestamps are coarse (a few ms on Linux, 1 or 2 s elsewhere), so two writes of the same size
 * in one tick look alike: as git does with its index, what was read less than `RACY_MS` after
 * its mtime is not trusted, and read again until it is older.
 */

/** Younger than this when read: read again next time (see above). */
const RACY_MS = 2000

/** One mock file, as the folder's listing gives it. */
export interface MockFileRule {
  readonly key: string
  readonly method: string | undefined
  readonly pattern: PathPattern
  /** The file's name in the folder. */
  readonly name: string
}

/** The mock files of one route. */
export interface MockFolder {
  /** The folder, absolute. */
  readonly path: string
  /** The files' rules as the folder holds them now, the most specific first. */
  rules(): Promise<readonly MockFileRule[]>
  /** A file's answer as it is now, or what is wrong with it. */
  answer(rule: MockFileRule): Promise<ResolvedMockAnswer | MockAnswerProblem>
  /** A file's path relative to the root, for the answer's mark and messages. */
  label(name: string): string
  /**
   * Writes `text` as the file of `key` (made or replaced) atomically, inside the folder only (the
   * name is `mockFileName`'s); resolves the file's label. Rejects when the file system refuses.
   */
  write(key: string, text: string): Promise<string>
  /** Resolves when every write begun so far is done. */
  flush(): Promise<void>
}

interface Seen<T> {
  readonly mtimeMs: number
  readonly ctimeMs: number
  readonly size: number
  readonly ino: number
  /** `Date.now()` when the stat was taken. */
  readonly at: number
  readonly value: T
}

function unchanged(info: Stats, seen: Seen<unknown> | undefined): boolean {
  return (
    seen !== undefined &&
    info.mtimeMs === seen.mtimeMs &&
    info.ctimeMs === seen.ctimeMs &&
    info.size === seen.size &&
    info.ino === seen.ino &&
    seen.at - info.mtimeMs > RACY_MS
  )
}

function remember<T>(info: Stats, at: number, value: T): Seen<T> {
  return { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, size: info.size, ino: info.ino, at, value }
}

async function listRules(path: string): Promise<readonly MockFileRule[]> {
  const names = await readdir(path).catch(() => [] as string[])
  const rules: MockFileRule[] = []
  for (const name of names) {
    const key = mockKeyOf(name)
    const compiled = key === undefined ? undefined : compileMockKey(key)
    if (key !== undefined && compiled !== undefined) rules.push({ key, ...compiled, name })
  }
  return Object.freeze(rules.sort((a, b) => compareMockKeys(a.key, b.key)))
}

/** A file's text as an answer: JSON `{ status, headers, json | body }`, checked as the config's are. */
function parseAnswer(text: string): ResolvedMockAnswer | MockAnswerProblem {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { field: '', problem: `is not JSON (${(error as Error).message})` }
  }
  return mockAnswerOf(data)
}

const NO_RULES: readonly MockFileRule[] = Object.freeze([])

/**
 * The mock files of the folder `path` (absolute); `root` is what labels are relative to.
 *
 * @example
 * const folder = createMockFolder('/app/cors-dev-proxy/mocks/api', '/app')
 * const [rule] = await folder.rules()
 */
export function createMockFolder(path: string, root: string): MockFolder {
  let listing: Seen<readonly MockFileRule[]> | undefined
  const files = new Map<string, Seen<ResolvedMockAnswer | MockAnswerProblem>>()
  const writes = new Set<Promise<void>>()

  return {
    path,
    async rules() {
      const at = Date.now()
      const info = await stat(path).catch(() => undefined)
      if (info === undefined || !info.isDirectory()) {
        listing = undefined
        files.clear()
        return NO_RULES
      }
      if (unchanged(info, listing)) return (listing as Seen<readonly MockFileRule[]>).value
      const rules = await listRules(path)
      listing = remember(info, at, rules)
      for (const name of files.keys()) if (!rules.some((rule) => rule.name === name)) files.delete(name)
      return rules
    },
    async answer(rule) {
      const file = join(path, rule.name)
      const at = Date.now()
      const info = await stat(file).catch(() => undefined)
      if (info === undefined) return { field: '', problem: 'was removed' }
      const seen = files.get(rule.name)
      if (unchanged(info, seen)) return (seen as Seen<ResolvedMockAnswer | MockAnswerProblem>).value
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => error)
      const answer =
        typeof text === 'string'
          ? parseAnswer(text)
          : { field: '', problem: `cannot be read (${text.code ?? text.message})` }
      files.set(rule.name, remember(info, at, answer))
      return answer
    },
    label(name) {
      return relative(root, join(path, name)) || name
    },
    write(key, text) {
      const name = mockFileName(key)
      if (name === undefined) return Promise.reject(new Error(`'${key}' is not a mock key`))
      const work = updateFileAtomically(join(path, name), () => text).then((written) => {
        if (!written) throw new Error(`${name} stayed locked for 5 s`)
        return relative(root, join(path, name)) || name
      })
      const settled = work.then(
        () => undefined,
        () => undefined,
      )
      writes.add(settled)
      void settled.finally(() => writes.delete(settled))
      return work
    },
    async flush() {
      while (writes.size > 0) await Promise.all(writes)
    },
  }
}
