/*
 * The `ServerResponse` the engine writes to, turned into a Web `Response`. The head becomes the
 * `Response` when the answer ends, or at the latest one turn of the event loop after the head
 * is written (`writeHead`, or the first `write`/`end`/`flushHeaders`), so an event stream's
 * first event reaches the client before the stream ends. An answer that ended by then (a small
 * proxied GET: undici hands head, body and end over in one parse) gets its bytes as the body,
 * which the runtime writes in one go, with no `ReadableStream`; a longer one a `ReadableStream`
 * fed by `write`/`end`, pull-based: `write` returns `false` once the consumer's queue is full
 * and `'drain'` follows when it pulls again, as on a socket.
 */
import { EventEmitter } from 'node:events'
import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http'
import { type HeadFields, headFields, headFieldsOfList } from './response-head.js'

/** Statuses whose `Response` must have a null body (Fetch, "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** Why a body fails when the response is destroyed: the client must not take a short body for a whole one. */
const CUT_SHORT = 'cors-dev-proxy: the response was destroyed before its end'

/** How many bytes may wait for the consumer before `write` asks the writer to wait. */
const HIGH_WATER_MARK = 64 * 1024

/** The head of a response nothing set a field of yet, to read from. */
const NO_HEADERS: ReadonlyMap<string, OutgoingHttpHeader> = new Map()

/** Node's error for a header changed after the head went out, so the engine's guards behave the same. */
function headersSentError(): Error {
  return Object.assign(new Error('Cannot set headers after they are sent to the client'), {
    code: 'ERR_HTTP_HEADERS_SENT',
  })
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  if (chunk instanceof Uint8Array) return chunk
  return Buffer.from(String(chunk))
}

/** One body of the chunks an answer wrote before it was handed over. */
function joined(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array
  return Buffer.concat(chunks, bytes)
}

/**
 * The answers whose head was written this turn of the event loop, handed over together by one
 * timer: most have ended by then (handed over already, so nothing is left to do), and one
 * `setImmediate` per answer was a timer object per small GET.
 */
let headsThisTurn: FetchResponse[] = []

/** The timer's callback: every answer of the turn that has not been handed over goes as a stream. */
function handOverStreaming(): void {
  const answers = headsThisTurn
  headsThisTurn = []
  for (const res of answers) res.handOver(false)
}

/** Hands `res` over at the latest one turn of the event loop from now. */
function handOverNextTurn(res: FetchResponse): void {
  if (headsThisTurn.push(res) === 1) setImmediate(handOverStreaming)
}

/**
 * The engine's view of the answer to a Web `Request`: a `ServerResponse` look-alike whose
 * `response` promise settles with the `Response` once the head is written. `destroy()` after
 * the head errors the body, so a short body is never taken for a whole one; a consumer that
 * cancels the body destroys it, which closes it (`'close'`) and makes the forwarder abort the
 * upstream request.
 *
 * @example
 * const res = new FetchResponse(request.method)
 * proxy.middleware(req, res)
 * return res.response
 */
export class FetchResponse extends EventEmitter {
  statusCode = 200
  statusMessage = ''
  writableEnded = false
  writableFinished = false
  destroyed = false
  /**
   * Settles with the answer once its head is written (or a 502 when the response is destroyed
   * first), or with what `pass` gives when the engine hands the request on.
   */
  readonly response: Promise<Response | undefined>
  /** The head set field by field; made by the first field, as the usual head comes as a list. */
  #headers: Map<string, OutgoingHttpHeader> | undefined
  /**
   * The flat `[name, value, …]` list `writeHead` was given over no other header, kept as it is:
   * the forwarder's usual head, which becomes the `Response`'s in one pass. Moved into `#headers`
   * only if something reads the head back.
   */
  #list: readonly unknown[] | undefined
  readonly #method: string
  #settle!: (response: Response | undefined) => void
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined
  /** What was written between the head and the hand-over; `undefined` outside that span. */
  #pending: Uint8Array[] | undefined
  #pendingBytes = 0
  #bodyBytes = 0
  #headSent = false
  #bodiless = false
  #waiting = false
  #closed = false

  constructor(method: string) {
    super()
    this.#method = method
    this.response = new Promise((resolve) => {
      this.#settle = resolve
    })
  }

  /**
   * The engine handed the request on (its `next`): `response` settles with `answer`, `undefined`
   * for the runtime's next handler, unless the head was written already.
   */
  pass(answer: Response | undefined): void {
    if (!this.#headSent) this.#settle(answer)
  }

  get headersSent(): boolean {
    return this.#headSent
  }

  /**
   * The flat `[name, value, …]` list the head was written from, while kept as it is: what the
   * inspector records, read as it is instead of through a map built for it.
   */
  get sentHeadList(): readonly unknown[] | undefined {
    return this.#headSent ? this.#list : undefined
  }

  /**
   * The body's bytes written so far, what the inspector records as the answer's size: the
   * runtime writes the answer after the engine is done, on no socket the engine sees.
   */
  get bodyBytesWritten(): number {
    return this.#bodyBytes
  }

  setHeader(name: string, value: OutgoingHttpHeader): this {
    if (this.#headSent) throw headersSentError()
    this.#headers ??= new Map()
    this.#headers.set(name.toLowerCase(), value)
    return this
  }

  getHeader(name: string): OutgoingHttpHeader | undefined {
    return this.#map().get(name.toLowerCase())
  }

  hasHeader(name: string): boolean {
    return this.#map().has(name.toLowerCase())
  }

  removeHeader(name: string): void {
    if (this.#headSent) throw headersSentError()
    this.#headers?.delete(name.toLowerCase())
  }

  getHeaderNames(): string[] {
    return [...this.#map().keys()]
  }

  getHeaders(): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = Object.create(null)
    for (const [key, value] of this.#map()) headers[key] = value
    return headers
  }

  /** The head as a map to read, the kept list moved into it first. */
  #map(): ReadonlyMap<string, OutgoingHttpHeader> {
    const list = this.#list
    if (list !== undefined) {
      this.#list = undefined
      for (let i = 0; i + 1 < list.length; i += 2) this.#append(String(list[i]), String(list[i + 1]))
    }
    return this.#headers ?? NO_HEADERS
  }

  /** `writeHead(status, [reason], [headers])`, headers as an object or a flat `[name, value, …]` list. */
  writeHead(status: number, ...rest: unknown[]): this {
    if (this.#headSent) throw headersSentError()
    const reason = typeof rest[0] === 'string' ? rest.shift() : undefined
    const headers = rest[0]
    if (Array.isArray(headers)) {
      if (this.#headers === undefined || this.#headers.size === 0) this.#list = headers
      else
        for (let i = 0; i + 1 < headers.length; i += 2)
          this.#append(String(headers[i]), String(headers[i + 1]))
    } else if (headers !== null && typeof headers === 'object') {
      for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders))
        if (value !== undefined) this.setHeader(name, value)
    }
    this.statusCode = status
    if (reason !== undefined) this.statusMessage = reason as string
    this.#sendHead()
    return this
  }

  flushHeaders(): void {
    if (!this.#headSent) this.#sendHead()
  }

  write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    if (this.writableEnded || this.destroyed) return false
    if (!this.#headSent) this.#sendHead()
    const done = typeof encoding === 'function' ? encoding : callback
    const bytes = toBytes(chunk, encoding)
    if (typeof done === 'function') queueMicrotask(done as () => void)
    if (!this.#bodiless) this.#bodyBytes += bytes.byteLength
    const pending = this.#pending
    if (pending !== undefined) {
      if (this.#bodiless || bytes.byteLength === 0) return true
      pending.push(bytes)
      this.#pendingBytes += bytes.byteLength
      if (this.#pendingBytes < HIGH_WATER_MARK) return true
      // As much as the stream would queue: hand it over now, so back-pressure starts here.
      this.handOver(false)
    } else if (this.#controller !== undefined && bytes.byteLength > 0) {
      this.#controller.enqueue(bytes)
    }
    const controller = this.#controller
    if (controller === undefined || (controller.desiredSize ?? 1) > 0) return true
    this.#waiting = true
    return false
  }

  /** `end([chunk], [encoding], [callback])`, each optional, as on a `ServerResponse`. */
  end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.writableEnded || this.destroyed) return this
    let done = callback
    if (typeof chunk === 'function') {
      done = chunk
      chunk = undefined
    } else if (typeof encoding === 'function') {
      done = encoding
    }
    if (chunk !== undefined && chunk !== null)
      this.write(chunk, typeof encoding === 'string' ? encoding : undefined)
    if (!this.#headSent) this.#sendHead()
    this.writableEnded = true
    if (this.#pending !== undefined) this.handOver(true)
    else this.#controller?.close()
    this.writableFinished = true
    queueMicrotask(() => {
      if (typeof done === 'function') (done as () => void)()
      this.emit('finish')
      this.#close()
    })
    return this
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this
    this.destroyed = true
    const reason = error ?? new Error(CUT_SHORT)
    if (!this.#headSent) {
      // Nothing was answered yet: a bare 502, whose body fails, so no client takes it for an answer.
      this.#headSent = true
      const failing = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(reason) })
      this.#settle(new Response(failing, { status: 502 }))
    } else if (!this.writableEnded) {
      // Handed over as a stream first, so the client sees the head and then a body that fails.
      if (this.#pending !== undefined) this.handOver(false)
      this.#controller?.error(reason)
    }
    queueMicrotask(() => this.#close())
    return this
  }

  /**
   * The client left (the request's signal aborted): ends the answer as `destroy` does, but with
   * nothing that fails, because nobody reads it and a runtime prints a body that fails (Deno
   * prints the error of a handler's answer it could not write). Before the head, an empty 502;
   * mid-body, the stream ends.
   */
  abandon(): void {
    if (this.destroyed) return
    this.destroyed = true
    if (!this.#headSent) {
      this.#headSent = true
      this.#settle(new Response(null, { status: 502 }))
    } else if (!this.writableEnded) {
      if (this.#pending !== undefined) this.handOver(false)
      try {
        this.#controller?.close()
      } catch {
        // The runtime cancelled the body already, as it does for a client that left.
      }
    }
    queueMicrotask(() => this.#close())
  }

  /** Adds a value to the head map (before or while the head is sent), a repeat making a list. */
  #append(name: string, value: string): void {
    const key = name.toLowerCase()
    this.#headers ??= new Map()
    const headers = this.#headers
    const existing = headers.get(key)
    if (existing === undefined) headers.set(key, value)
    else headers.set(key, [...(Array.isArray(existing) ? existing : [String(existing)]), value])
  }

  /** `'close'` once, after `'finish'` or on destruction, as Node's response emits it. */
  #close(): void {
    if (this.#closed) return
    this.#closed = true
    this.emit('close')
  }

  #sendHead(): void {
    this.#headSent = true
    this.#bodiless = NULL_BODY.has(this.statusCode) || this.#method === 'HEAD'
    this.#pending = []
    handOverNextTurn(this)
  }

  /**
   * Settles `response` with the head and what was written so far: the whole body as bytes when
   * the answer has ended (`complete`), else a stream that carries on with the next `write`.
   * Does nothing once handed over.
   */
  handOver(complete: boolean): void {
    const pending = this.#pending
    if (pending === undefined) return
    this.#pending = undefined
    const status = this.statusCode
    let body: BodyInit | null = null
    // What the engine writes is never on a SharedArrayBuffer, which `BodyInit` leaves out.
    if (complete)
      body = this.#bodiless ? null : (joined(pending, this.#pendingBytes) as Uint8Array<ArrayBuffer>)
    else body = this.#bodiless ? null : this.#bodyStream(pending)
    this.#pendingBytes = 0
    try {
      this.#settle(new Response(body, { status, statusText: this.statusMessage, headers: this.#fields() }))
    } catch (error) {
      // A status `Response` refuses (a 1xx the engine never writes here): a 502 that says so.
      const message = error instanceof Error ? error.message : String(error)
      this.#controller = undefined
      this.#settle(
        new Response(`cors-dev-proxy could not answer status ${status}: ${message}\n`, { status: 502 }),
      )
    }
  }

  /** The head for the `Response`, from the kept list when there is one. */
  #fields(): HeadFields {
    const list = this.#list
    if (list !== undefined) return headFieldsOfList(list)
    return this.#headers === undefined ? {} : headFields(this.#headers)
  }

  #bodyStream(written: readonly Uint8Array[]): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller
          for (const chunk of written) controller.enqueue(chunk)
        },
        pull: () => {
          if (!this.#waiting) return
          this.#waiting = false
          this.emit('drain')
        },
        cancel: () => {
          // The client stopped reading (it left): the response is gone, as a closed socket's is.
          this.#controller = undefined
          if (!this.writableEnded) this.destroy()
        },
      },
      { highWaterMark: HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
    )
  }
}
