import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/*
 * A recording file is rewritten whole (its answers are one JSON document), and so is a mock file
 * written by "Mock this answer" (route-mocks/mock-folder.ts): each change is a
 * read-modify-write under a lock, and lands through a temp file and a rename: a reader never
 * sees half a file, and two dev servers appending to the same file at once lose nothing. The
 * lock is a `<file>.lock` created with `wx` (O_EXCL: atomic on local file systems), so it holds
 * across processes; one left by a process that died is taken over after `STALE_LOCK_MS`.
 */

/** A lock older than this was left by a process that died: taken over. */
const STALE_LOCK_MS = 10_000
/** Give up waiting for a lock after this long (the recording is dropped, and said so). */
const LOCK_WAIT_MS = 5_000

async function takeLock(lock: string): Promise<boolean> {
  const started = Date.now()
  let wait = 2
  for (;;) {
    try {
      const handle = await open(lock, 'wx')
      await handle.close()
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    )
    if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined)
    else if (Date.now() - started > LOCK_WAIT_MS) return false
    // Another writer holds it for a few milliseconds: back off, a little longer each time.
    await sleep(wait)
    wait = Math.min(wait * 2, 50)
  }
}

/**
 * Replaces `file` with what `update` makes of its current text (`undefined` when it does not
 * exist yet), under a lock that holds across processes, through a temp file and a rename.
 * `update` (sync or async) returning `undefined` leaves the file as it is. Resolves `false` when the lock could
 * not be had within 5 s.
 *
 * @example
 * await updateFileAtomically(file, (text) => serializeRecording(append(parseRecording(text ?? ''), answer)))
 */
export async function updateFileAtomically(
  file: string,
  update: (current: string | undefined) => string | undefined | Promise<string | undefined>,
): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true })
  const lock = `${file}.lock`
  if (!(await takeLock(lock))) return false
  try {
    const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    // An update may take a while (a new secret's verifier): the lock holds, and waits stay under 5 s.
    const next = await update(current)
    if (next === undefined) return true
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    await writeFile(temp, next)
    await rename(temp, file)
    return true
  } finally {
    await unlink(lock).catch(() => undefined)
  }
}
