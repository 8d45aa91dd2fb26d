import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { Logger } from '../../log/logger.js'
import { updateFileAtomically } from '../atomic-file.js'
import { routeFolderOf } from '../route-folder.js'
import type { ResolvedRecordingsOptions } from './options/resolve-recordings-options.js'
import {
  parseRecording,
  RECORDING_FORMAT,
  type RecordedAnswer,
  type RecordingFile,
  serializeRecording,
} from './recording-format.js'
import type { RequestKey } from './recording-key.js'
import { createRecordingReader } from './recording-reader.js'
import { createRouteIndex, type RouteIndex } from './route-index.js'
import { answersFor, type MatchedAnswers, prepareSecret, withAnswer } from './secret-answers.js'
import { createSecretVerifier } from './secret-verifier.js'

/** The recordings folder of one proxy: where answers are appended and read back. */
export interface RecordingStore {
  readonly options: ResolvedRecordingsOptions
  /**
   * Appends an answer to its request's file (made when new), atomically; never rejects. A new
   * file beyond `maxFiles` is not made, and the log says recording stopped. The answer gets its
   * place in the route's session (`seq`) from `order` (see `RouteIndex.order`), else now.
   */
  append(prefix: string, key: RequestKey, method: string, answer: RecordedAnswer, order?: number): void
  /** The route's folder as a whole: its recordings, its session counter, its writes. */
  index(prefix: string): RouteIndex
  /** A request's recording, `undefined` when there is none (or the file is not one). */
  read(prefix: string, key: RequestKey): Promise<RecordingFile | undefined>
  /** The answers of `recording` for the request of `key` (its secret verified), `undefined` when none fits. */
  answersFor(recording: RecordingFile, key: RequestKey): Promise<MatchedAnswers | undefined>
  /** The file of the recording closest to a request (same method and path first), relative to the folder. */
  closest(prefix: string, method: string, path: string): Promise<string | undefined>
  /** The file of `key`, relative to the working directory (for messages). */
  describe(prefix: string, key: RequestKey): string
  /** Makes `flush` wait for `work` too (what leads to an append). */
  track(work: Promise<unknown>): void
  /** Resolves when every append begun so far is on disk. */
  flush(): Promise<void>
}

/** The route's folder; throws if a name would leave the recordings folder (it cannot: names are slugs). */
function inside(root: string, ...parts: string[]): string {
  const path = resolve(root, ...parts)
  if (!path.startsWith(root + sep)) throw new Error(`recording path outside ${root}: ${path}`)
  return path
}

/** The files already in the folder (`<route folder>/<name>`), read once when the first append comes. */
async function listFiles(dir: string): Promise<Set<string>> {
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const files = new Set<string>()
  for (const folder of folders) {
    if (!folder.isDirectory()) continue
    const names = await readdir(join(dir, folder.name)).catch(() => [])
    for (const name of names) if (name.endsWith('.json')) files.add(`${folder.name}/${name}`)
  }
  return files
}

/**
 * The recordings folder of one proxy. Appends run one after the other per file within a process,
 * and under a file lock across processes (see ../atomic-file.ts).
 *
 * @example
 * const store = createRecordingStore(resolved.recordings, logger, process.cwd())
 * store.append('/api', requestKey(request), 'GET', answer)
 * await store.flush()
 */
export function createRecordingStore(
  options: ResolvedRecordingsOptions,
  logger: Logger,
  base: string,
): RecordingStore {
  const ctx: StoreContext = {
    options,
    logger,
    base,
    // `base`: the working directory, or the dev server's root, for a relative `recordings.dir`.
    root: resolve(base, options.dir),
    pending: new Set(),
    known: undefined,
    stopped: false,
    chains: new Map(),
    indexes: new Map(),
    // One per proxy: a secret checked against a file's verifier once is known for the process.
    verifier: createSecretVerifier(),
  }
  const readParsed = createRecordingReader()
  return {
    options,
    append(prefix, key, method, answer, order) {
      queueAppend(ctx, prefix, key, method, answer, order ?? indexOf(ctx, prefix).order())
    },
    index(prefix) {
      return indexOf(ctx, prefix)
    },
    track(work) {
      const done = work.then(
        () => undefined,
        () => undefined,
      )
      ctx.pending.add(done)
      void done.finally(() => ctx.pending.delete(done))
    },
    async read(prefix, key) {
      return readParsed(inside(ctx.root, routeFolderOf(prefix), key.fileName))
    },
    answersFor(recording, key) {
      return answersFor(recording, key.secret, ctx.verifier)
    },
    closest(prefix, method, path) {
      return closestRecording(ctx, prefix, method, path)
    },
    describe(prefix, key) {
      return relative(base, inside(ctx.root, routeFolderOf(prefix), key.fileName))
    },
    async flush() {
      while (ctx.pending.size > 0) await Promise.all(ctx.pending)
    },
  }
}

/** One proxy's recordings folder and the appends in flight to it. */
interface StoreContext {
  readonly options: ResolvedRecordingsOptions
  readonly logger: Logger
  readonly base: string
  /** The folder, absolute. */
  readonly root: string
  /** Appends and tracked work not settled yet, which `flush` waits for. */
  readonly pending: Set<Promise<void>>
  /** The files in the folder, listed once when the first append comes. */
  known: Promise<Set<string>> | undefined
  /** `recordings.maxFiles` was reached (said once). */
  stopped: boolean
  /** The last append queued per file, so one file's appends run in order. */
  readonly chains: Map<string, Promise<void>>
  readonly verifier: ReturnType<typeof createSecretVerifier>
  /** Per route prefix, its folder's index (made when first needed). */
  readonly indexes: Map<string, RouteIndex>
}

function indexOf(ctx: StoreContext, prefix: string): RouteIndex {
  let index = ctx.indexes.get(prefix)
  if (index === undefined) {
    index = createRouteIndex(inside(ctx.root, routeFolderOf(prefix)))
    ctx.indexes.set(prefix, index)
  }
  return index
}

/** Queues an append: one file's appends run in the order they came (the replay order); other files' in parallel. */
function queueAppend(
  ctx: StoreContext,
  prefix: string,
  key: RequestKey,
  method: string,
  answer: RecordedAnswer,
  order: number,
): void {
  const { chains, pending, logger } = ctx
  const chainKey = `${prefix}\n${key.fileName}`
  const previous = chains.get(chainKey) ?? Promise.resolve()
  const done = previous
    .then(async () => {
      const seq = await indexOf(ctx, prefix).seqOf(order)
      await appendNow(ctx, prefix, key, method, { ...answer, seq })
    })
    .catch((error: unknown) => {
      logger.limited('error', `recording ${prefix}`, () => {
        const message = error instanceof Error ? error.message : String(error)
        return `recording not written for route '${prefix}': ${message}`
      })
    })
  chains.set(chainKey, done)
  pending.add(done)
  void done.finally(() => {
    pending.delete(done)
    if (chains.get(chainKey) === done) chains.delete(chainKey)
  })
}

/** Adds the answer to its request's file, under the file lock; a new file only within `maxFiles`. */
async function appendNow(
  ctx: StoreContext,
  prefix: string,
  key: RequestKey,
  method: string,
  answer: RecordedAnswer,
): Promise<void> {
  const { root, options, verifier } = ctx
  const file = inside(root, routeFolderOf(prefix), key.fileName)
  ctx.known ??= listFiles(root)
  const files = await ctx.known
  const name = `${routeFolderOf(prefix)}/${key.fileName}`
  // A new file takes its place in the bound before any lock or disk access (appends in flight
  // together stay within it); at the bound, a request with no file yet is refused right here.
  const isNew = !files.has(name)
  if (isNew && files.size >= options.maxFiles) {
    stopRecording(ctx)
    return
  }
  files.add(name)
  // scrypt before the lock, not under it: another dev server waits at most 5 s for the file.
  const sealed = await prepareSecret(await readRecording(file), key.secret, verifier)
  let next: RecordingFile | undefined
  const written = await updateFileAtomically(file, async (current) => {
    const existing = (current === undefined ? undefined : parseRecording(current)) ?? {
      request: {
        method,
        path: key.path,
        body: key.body,
        headers: key.headers === undefined ? undefined : Object.fromEntries(key.headers),
      },
      answers: [],
    }
    next = await withAnswer(existing, key.secret, answer, verifier, options.maxAnswers, sealed)
    return serializeRecording(next)
  }).catch((error: unknown) => {
    if (isNew) files.delete(name)
    throw error
  })
  if (written && next !== undefined)
    indexOf(ctx, prefix).update(key.fileName, { ...next, version: RECORDING_FORMAT })
  if (!written) {
    if (isNew) files.delete(name)
    ctx.logger.limited(
      'warn',
      `recording lock ${prefix}`,
      () => `recording not written: ${file} stayed locked for 5 s`,
    )
  }
}

/** At `recordings.maxFiles`: new requests are no longer recorded, said once. */
function stopRecording(ctx: StoreContext): void {
  if (ctx.stopped) return
  ctx.stopped = true
  ctx.logger.warn(
    `recording stopped: ${relative(ctx.base, ctx.root) || '.'} holds ${ctx.options.maxFiles} files (recordings.maxFiles); new requests are not recorded, answers to recorded ones still are`,
  )
}

/** The route's recording most like a request (same method first, then the longest path in common), relative to `base`. */
async function closestRecording(
  ctx: StoreContext,
  prefix: string,
  method: string,
  path: string,
): Promise<string | undefined> {
  const folder = inside(ctx.root, routeFolderOf(prefix))
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json'))
  let best: [string, number] | undefined
  for (const name of names) {
    const recording = parseRecording(await readFile(join(folder, name), 'utf8').catch(() => ''))
    if (recording === undefined) continue
    const score = similarity(recording.request.method, recording.request.path, method, path)
    if (best === undefined || score > best[1]) best = [name, score]
  }
  return best === undefined ? undefined : relative(ctx.base, join(folder, best[0]))
}

/** The recording in `file`, `undefined` when there is none (or it is not one). */
async function readRecording(file: string): Promise<RecordingFile | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined)
  return text === undefined ? undefined : parseRecording(text)
}

/** How alike two requests are: the same method counts most, then the length of the path in common. */
function similarity(methodA: string, pathA: string, methodB: string, pathB: string): number {
  let common = 0
  const max = Math.min(pathA.length, pathB.length)
  while (common < max && pathA[common] === pathB[common]) common++
  return (methodA === methodB ? 10_000 : 0) + common - Math.abs(pathA.length - pathB.length) / 1000
}
