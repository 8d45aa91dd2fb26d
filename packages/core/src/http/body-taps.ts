/*
 * Taps on a response's body, each wrapping `write`/`end` once: a copy of what is sent (`tapBody`,
 * `tapChunks`), a pace (`paceBody`) and a hold of a short answer while
 * something decides whether another replaces it (`holdHead`). Whatever holds or replaces the body before the head goes
 * out is in response-head.ts (`takeOverBody`).
 */
import { type HookableResponse, toBuffer } from './response-head.js'

/**
 * Copies what the handler writes, up to `limit` bytes, without changing it: every chunk still
 * goes out as it came, and when the response ends `onBody` gets the copy (and whether the body
 * was longer). The exchange inspector uses it only while an inspector is connected.
 *
 * @example
 * tapBody(res, 65536, (body, truncated) => { record.responseBody = body })
 */
export function tapBody(
  res: HookableResponse,
  limit: number,
  onBody: (body: Buffer, truncated: boolean) => void,
): void {
  const { write, end } = res
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  let ended = false
  const keep = (chunk: unknown, encoding: unknown): void => {
    if (truncated) return
    const buffer = toBuffer(chunk, encoding)
    if (buffer === undefined) return
    const room = limit - size
    // A copy: the caller may reuse its buffer once `write` returns.
    chunks.push(Buffer.from(buffer.subarray(0, Math.max(0, Math.min(room, buffer.byteLength)))))
    size += Math.min(room, buffer.byteLength)
    if (buffer.byteLength > room) truncated = true
  }
  res.write = function tappedWrite(chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0])
    return write.call(res, chunk, ...rest)
  }
  res.end = function tappedEnd(...args: unknown[]) {
    if (!ended) {
      ended = true
      if (typeof args[0] !== 'function') keep(args[0], args[1])
      try {
        onBody(Buffer.concat(chunks), truncated)
      } catch {
        // A recorder's mistake must never stop the answer.
      }
    }
    return end.apply(res, args)
  }
}

/**
 * Paces what the handler writes to at most `bytesPerSecond` (a route's `throttle`): the body
 * goes out in slices of a tenth of a second's worth, each when its time comes. A chunk held back
 * makes `write` return `false` and `'drain'` follows once it is out, so a piped source (the
 * forwarder's upstream body) waits and nothing is buffered beyond the chunk in hand; `end` waits
 * for what is held.
 *
 * @example
 * paceBody(res, 16_384) // 16 KiB/s
 */
export function paceBody(
  res: HookableResponse & {
    emit(event: 'drain'): boolean
    once(event: 'close', listener: () => void): unknown
  },
  bytesPerSecond: number,
): void {
  const { write, end } = res
  const slice = Math.max(1, Math.floor(bytesPerSecond / 10))
  const queue: Buffer[] = []
  let timer: NodeJS.Timeout | undefined
  let due = 0
  let ending: unknown[] | undefined
  const pump = (): void => {
    timer = undefined
    while (queue.length > 0) {
      const now = performance.now()
      if (due > now) {
        timer = setTimeout(pump, due - now)
        return
      }
      const head = queue[0] as Buffer
      const part = head.subarray(0, slice)
      if (part.byteLength === head.byteLength) queue.shift()
      else queue[0] = head.subarray(slice)
      due = Math.max(due, now) + (part.byteLength * 1000) / bytesPerSecond
      write.call(res, part)
    }
    if (ending !== undefined) end.apply(res, ending)
    else res.emit('drain')
  }
  res.write = function pacedWrite(chunk: unknown, ...rest: unknown[]) {
    const buffer = toBuffer(chunk, rest[0])
    if (buffer === undefined) return write.call(res, chunk, ...rest)
    queue.push(buffer)
    if (timer === undefined) pump()
    return queue.length === 0
  }
  res.end = function pacedEnd(...args: unknown[]) {
    const last = typeof args[0] === 'function' ? undefined : toBuffer(args[0], args[1])
    const rest = args.filter((arg) => typeof arg === 'function')
    if (last !== undefined && last.byteLength > 0) queue.push(last)
    if (queue.length === 0 && timer === undefined) return end.apply(res, rest)
    ending = rest
    if (timer === undefined) pump()
    return res
  }
  res.once('close', () => clearTimeout(timer))
}

/**
 * Hands each chunk the handler writes to `onChunk` (a copy), unchanged on its way out, whether
 * or not the response ever ends: an event stream the client leaves is seen up to where it was.
 * The recordings use it on routes with `record`; `onChunk` returns `false` to stop copying.
 *
 * @example
 * tapChunks(res, (chunk) => { pieces.push([chunk, performance.now()]); return true })
 */
export function tapChunks(res: HookableResponse, onChunk: (chunk: Buffer) => boolean): void {
  const { write, end } = res
  let copying = true
  const keep = (chunk: unknown, encoding: unknown): void => {
    if (!copying) return
    const buffer = toBuffer(chunk, encoding)
    if (buffer === undefined || buffer.byteLength === 0) return
    try {
      // A copy: the caller may reuse its buffer once `write` returns.
      copying = onChunk(Buffer.from(buffer))
    } catch {
      // A recorder's mistake must never stop the answer.
      copying = false
    }
  }
  res.write = function tappedChunkWrite(chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0])
    return write.call(res, chunk, ...rest)
  }
  res.end = function tappedChunkEnd(...args: unknown[]) {
    if (typeof args[0] !== 'function') keep(args[0], args[1])
    return end.apply(res, args)
  }
}

/** Sends another answer in place of a held one (see `holdHead`); `undefined` lets the held one go. */
export type HeldAnswer = ((res: HookableResponse) => void) | undefined

/** How much of a held answer's body is kept before the source is asked to wait (see `holdHead`). */
const HELD_BYTES = 65_536

/**
 * Holds the head (and body) of an answer whose status is one of `statuses` until
 * `decide(status)` settles: `decide`'s answer is sent instead (what the source still writes is
 * dropped), or, when it gives none, the held head and body go out as they came and the rest
 * follows. Any other status goes out at once and the response is left as it was. At most
 * `limit` bytes are held: past them `write` returns `false`, and `'drain'` follows once the
 * decision is made, so a piped source (the forwarder's upstream body) waits instead of filling
 * memory. `mock: 'missing'` holds a 404 or 501 while the OpenAPI document says whether it
 * answers instead (contract/contract-route.ts).
 *
 * @example
 * holdHead(res, new Set([404, 501]), async (status) => (status === 404 ? sendMock : undefined))
 */
export function holdHead(
  res: HookableResponse & { emit(event: 'drain'): boolean },
  statuses: ReadonlySet<number>,
  decide: (status: number) => Promise<HeldAnswer>,
  limit = HELD_BYTES,
): void {
  const { writeHead, write, end } = res
  const restore = (): void => {
    res.writeHead = writeHead
    res.write = write
    res.end = end
  }
  res.writeHead = function heldHead(status: number, ...rest: unknown[]) {
    if (!statuses.has(status)) {
      restore()
      return writeHead.call(res, status, ...rest)
    }
    const chunks: Buffer[] = []
    let held = 0
    let ended = false
    const callbackOf = (args: readonly unknown[]): (() => void) | undefined =>
      args.find((item) => typeof item === 'function') as (() => void) | undefined
    res.write = function heldWrite(chunk: unknown, ...more: unknown[]) {
      const buffer = toBuffer(chunk, more[0])
      if (buffer !== undefined) {
        chunks.push(Buffer.from(buffer))
        held += buffer.byteLength
      }
      callbackOf(more)?.()
      return held < limit
    }
    res.end = function heldEnd(...args: unknown[]) {
      if (args[0] !== undefined && typeof args[0] !== 'function') res.write(args[0], args[1])
      callbackOf(args)?.()
      ended = true
      return res
    }
    const settle = (answer: HeldAnswer): void => {
      const waiting = !ended && held >= limit
      restore()
      if (answer !== undefined) {
        answer(res)
        // The source's answer is not wanted: what it still writes goes nowhere.
        res.write = function droppedWrite(...args: unknown[]) {
          callbackOf(args)?.()
          return true
        }
        res.end = function droppedEnd(...args: unknown[]) {
          callbackOf(args)?.()
          return res
        }
      } else {
        writeHead.call(res, status, ...rest)
        const body = Buffer.concat(chunks)
        if (ended) end.call(res, body)
        else if (body.byteLength > 0) write.call(res, body)
      }
      if (waiting) res.emit('drain')
    }
    void decide(status)
      .catch(() => undefined)
      .then(settle)
    return res
  }
}
