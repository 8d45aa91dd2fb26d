/*
 * The one place that intercepts a response's head. Node writes the head through
 * `res.writeHead` in every case (called by the handler, or implicitly by `http`'s first
 * `write`/`end` and by the `http2` compatibility API's), so a single wrapper installed once per
 * response sees every answer: the forwarder's, the mock's, our 502/504, a preflight answer.
 * Steps register hooks here instead of replacing `writeHead` themselves, so their order is the
 * order they registered in and none can undo another.
 */
import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http'

/** The head of an answer about to be sent: its status and headers, both changeable. */
export interface ResponseHead {
  statusCode: number
  getHeader(name: string): OutgoingHttpHeader | undefined
  setHeader(name: string, value: OutgoingHttpHeader): void
  removeHeader(name: string): void
  /** Header names, lowercase. */
  getHeaderNames(): string[]
  getHeaders(): OutgoingHttpHeaders
}

/** Sees (and may change) the head just before it is sent. Must not throw; a throw is swallowed. */
export type ResponseHeadHook = (head: ResponseHead) => void

/**
 * Takes over the body: gets the whole body the handler wrote (or `undefined` when it passed
 * `limit` bytes) and the head it set, and returns the body to send instead, after changing the
 * head as needed.
 */
export type BodyTakeover = (body: Buffer | undefined, head: ResponseHead) => Buffer | string

/** The response methods the hooks need; `http` and `http2` compatibility responses both have them. */
export interface HookableResponse {
  statusCode: number
  readonly headersSent: boolean
  writeHead(status: number, ...rest: unknown[]): unknown
  write(chunk: unknown, ...rest: unknown[]): boolean
  end(...args: unknown[]): unknown
  getHeader(name: string): OutgoingHttpHeader | undefined
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  removeHeader(name: string): void
  getHeaderNames(): string[]
  getHeaders(): OutgoingHttpHeaders
}

interface HeadState {
  readonly hooks: ResponseHeadHook[]
  readonly writeHead: HookableResponse['writeHead']
  /** Set while a takeover holds the body: the head is only sent once the body is known. */
  held: { readonly takeover: BodyTakeover; readonly limit: number } | undefined
}

const STATE = Symbol('cors-dev-proxy.responseHead')

type StatefulResponse = HookableResponse & { [STATE]?: HeadState }

/**
 * Folds the headers given to `writeHead` (an object, or a flat `[name, value, …]` list as
 * Node also accepts) into the response's own, so a hook sees one set. Names repeated in a flat
 * list (several Set-Cookie lines) become one array value, which Node sends as separate lines.
 */
function absorbHeaders(res: HookableResponse, headers: unknown): void {
  if (Array.isArray(headers)) {
    const grouped = new Map<string, string[]>()
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = String(headers[i]).toLowerCase()
      const values = grouped.get(name) ?? []
      values.push(String(headers[i + 1]))
      grouped.set(name, values)
    }
    for (const [name, values] of grouped)
      res.setHeader(name, values.length === 1 ? (values[0] as string) : values)
  } else if (headers !== null && typeof headers === 'object') {
    const record = headers as OutgoingHttpHeaders
    for (const name of Object.keys(record)) {
      const value = record[name]
      if (value !== undefined) res.setHeader(name, value)
    }
  }
}

/**
 * A view of the response as a {@link ResponseHead}, with the status kept apart until sent. A
 * class, so each head costs one small object and not a closure per method.
 */
class HeadView implements ResponseHead {
  constructor(
    private readonly res: HookableResponse,
    public statusCode: number,
  ) {}
  getHeader(name: string): OutgoingHttpHeader | undefined {
    return this.res.getHeader(name)
  }
  setHeader(name: string, value: OutgoingHttpHeader): void {
    this.res.setHeader(name, value)
  }
  removeHeader(name: string): void {
    this.res.removeHeader(name)
  }
  getHeaderNames(): string[] {
    return this.res.getHeaderNames()
  }
  getHeaders(): OutgoingHttpHeaders {
    return this.res.getHeaders()
  }
}

function headOf(res: HookableResponse, status: number): ResponseHead {
  return new HeadView(res, status)
}

/** Runs the hooks in order, then sends the head with the status they settled on. */
function sendHead(
  res: HookableResponse,
  state: HeadState,
  status: number,
  reason: string | undefined,
): unknown {
  res.writeHead = state.writeHead
  const head = headOf(res, status)
  for (const hook of state.hooks) {
    try {
      hook(head)
    } catch {
      // A hook observes or amends; it never gets to break the answer.
    }
  }
  // A reason phrase belongs to the status it was written for.
  return head.statusCode === status && reason !== undefined
    ? state.writeHead.call(res, head.statusCode, reason)
    : state.writeHead.call(res, head.statusCode)
}

function stateOf(res: StatefulResponse): HeadState {
  const existing = res[STATE]
  if (existing !== undefined) return existing
  const state: HeadState = { hooks: [], writeHead: res.writeHead, held: undefined }
  res[STATE] = state
  const writeHeadWithHooks = function writeHeadWithHooks(status: number, ...rest: unknown[]) {
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined
    absorbHeaders(res, reason === undefined ? rest[0] : rest[1])
    if (state.held !== undefined) {
      // The head waits for the body: the takeover may still change it.
      res.statusCode = status
      return res
    }
    return sendHead(res, state, status, reason)
  }
  // It folds a flat list into the response's own headers before the next writeHead sees any.
  res.writeHead = Object.assign(writeHeadWithHooks, { [TAKES_FLAT_HEAD]: true })
  return state
}

const TAKES_FLAT_HEAD = Symbol('cors-dev-proxy.takesFlatHead')

/**
 * Whether `writeHead(status, [name, value, …])` is safe on `res`: its `writeHead` is its class's
 * own (Node's `http` and `http2` responses take a flat list) or the hooks' wrapper above. A
 * middleware that replaces `res.writeHead` (compression packages do, Storybook's dev server
 * among them) often reads its headers argument as an object only, and would send a flat list as
 * fields named `0`, `1`, …: such a response gets its head as an object.
 *
 * @example
 * res.writeHead(204, takesFlatHead(res) ? ['access-control-max-age', '5'] : { 'access-control-max-age': '5' })
 */
export function takesFlatHead(res: object): boolean {
  const writeHead = (res as { writeHead?: unknown }).writeHead as { [TAKES_FLAT_HEAD]?: true } | undefined
  return (
    writeHead === (Object.getPrototypeOf(res) as { writeHead?: unknown } | null)?.writeHead ||
    writeHead?.[TAKES_FLAT_HEAD] === true
  )
}

/**
 * Registers `hook` to see and change the head of `res` just before it is sent. Hooks run in
 * the order they were registered, once. Does nothing useful once the head is out.
 *
 * @example
 * onResponseHead(res, (head) => head.setHeader('vary', 'Origin'))
 */
export function onResponseHead(res: HookableResponse, hook: ResponseHeadHook): void {
  stateOf(res as StatefulResponse).hooks.push(hook)
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined
  if (typeof chunk === 'string') {
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  }
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  return undefined
}

/**
 * Holds the whole body the handler writes, up to `limit` bytes, and when it ends lets
 * `takeover` replace it (and change the head); then the head goes out through the hooks and
 * the new body after it. The moment the body passes `limit`, `takeover` gets `undefined` and
 * its answer is sent at once: nothing more is held, and from then on `write` drops what it is
 * given and returns `false`, so a piped source (the forwarder's upstream body) pauses instead
 * of being read to its end; the forwarder drops the upstream when the response closes. If the
 * head was already sent when the takeover starts, the body passes through untouched.
 *
 * @example
 * takeOverBody(res, 16 * 1024 * 1024, (body, head) => wrapAsJsonp(body, head))
 */
export function takeOverBody(res: HookableResponse, limit: number, takeover: BodyTakeover): void {
  if (res.headersSent) return
  const state = stateOf(res as StatefulResponse)
  state.held = { takeover, limit }
  const { write, end } = res
  const chunks: Buffer[] = []
  let size = 0
  let finished = false

  function finish(body: Buffer | undefined, done: unknown): unknown {
    finished = true
    chunks.length = 0
    res.write = write
    res.end = end
    state.held = undefined
    const head = headOf(res, res.statusCode)
    let answer: Buffer | string
    try {
      answer = takeover(body, head)
    } catch {
      answer = body ?? ''
    }
    res.statusCode = head.statusCode
    const sent = typeof done === 'function' ? res.end(answer, done) : res.end(answer)
    if (body === undefined) {
      // The answer is out but the handler may still be writing (a pipe has chunks in flight):
      // Node would turn a write after the end into an 'error' event, which can crash the server.
      res.write = function droppedWrite(_chunk: unknown, ...rest: unknown[]) {
        ;(rest.find((item) => typeof item === 'function') as (() => void) | undefined)?.()
        return false
      }
      res.end = function droppedEnd(...args: unknown[]) {
        ;(args.find((item) => typeof item === 'function') as (() => void) | undefined)?.()
        return res
      }
    }
    return sent
  }

  const keep = (buffer: Buffer | undefined): void => {
    if (buffer === undefined || finished) return
    size += buffer.byteLength
    if (size > limit) finish(undefined, undefined)
    else chunks.push(buffer)
  }
  res.write = function heldWrite(chunk: unknown, ...rest: unknown[]) {
    keep(toBuffer(chunk, rest[0]))
    if (finished) return res.write(chunk, ...rest)
    const done = rest.find((item) => typeof item === 'function') as (() => void) | undefined
    done?.()
    return true
  }
  res.end = function heldEnd(...args: unknown[]) {
    if (typeof args[0] !== 'function') keep(toBuffer(args[0], args[1]))
    if (finished) return res.end(...args)
    return finish(
      Buffer.concat(chunks),
      args.find((item) => typeof item === 'function'),
    )
  }
}

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
