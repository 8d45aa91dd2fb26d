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

/** A chunk given to `write`/`end` as bytes; `undefined` for none (or a callback in its place). */
export function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
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
