/*
 * A Web `Request` dressed as the `IncomingMessage` the engine reads, so the Fetch front end
 * runs the very steps the Node one runs. Only what the engine reads is here: the request line,
 * the headers as Node lays them out, the socket's address and TLS flag, and the body as a
 * `Readable` that pulls from `request.body` one chunk per `_read` (back-pressure: nothing is
 * read from the client while the upstream side is full).
 */
import { Readable } from 'node:stream'

/** What the runtime knows about the connection and `Request` does not carry. */
export interface FetchConnectionInfo {
  /** The client's address (`server.requestIP(req).address` on Bun, `info.remoteAddr.hostname` on Deno). */
  readonly remoteAddress?: string | undefined
}

/** Node's layout of headers: lowercase names, repeats joined, `set-cookie` as a list. */
function nodeHeaders(request: Request, url: URL): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null)
  // `Headers` already joins repeated fields with ", " and lowercases names, as Node does.
  for (const [name, value] of request.headers) headers[name] = value
  // `Headers` joins repeated Cookie fields (HTTP/2 sends one per cookie) with ", ", Node and
  // RFC 9113 section 8.2.3 with "; ". A cookie-octet has no comma or space (RFC 6265 section
  // 4.1.1), so ", " there can only be the join.
  if (headers.cookie !== undefined) headers.cookie = (headers.cookie as string).replaceAll(', ', '; ')
  const cookies = request.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // A `Request` built from a URL (a test, Hono's `app.request`) has no Host; HTTP/1.1 always does.
  if (headers.host === undefined) headers.host = url.host
  // A streamed body has neither length nor framing in `Headers`: say it is chunked, as the
  // wire did, so the engine knows a body follows (RFC 9112 section 6.3).
  if (request.body !== null && headers['content-length'] === undefined)
    headers['transfer-encoding'] ??= 'chunked'
  return headers
}

/** The flat `[name, value, …]` list of `rawHeaders`, one entry per value. */
function rawHeaders(headers: Record<string, string | string[]>): string[] {
  const raw: string[] = []
  for (const [name, value] of Object.entries(headers)) {
    for (const item of Array.isArray(value) ? value : [value]) raw.push(name, item)
  }
  return raw
}

/**
 * The engine's view of a Web `Request`: an HTTP/1.1 `IncomingMessage` look-alike whose body
 * streams from `request.body`. When the client goes (`request.signal` aborts) it is
 * destroyed, which emits `'aborted'` and `'close'` as Node's does, and the forwarder aborts its
 * upstream request.
 *
 * @example
 * const req = new FetchRequest(request, { remoteAddress: '127.0.0.1' })
 */
export class FetchRequest extends Readable {
  readonly method: string
  url: string
  readonly headers: Record<string, string | string[]>
  readonly rawHeaders: string[]
  readonly httpVersion = '1.1'
  readonly httpVersionMajor = 1
  readonly httpVersionMinor = 1
  readonly socket: { readonly remoteAddress: string | undefined; readonly encrypted: boolean }
  complete = false
  aborted = false
  readonly #body: ReadableStream<Uint8Array> | null
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  #reading = false

  constructor(request: Request, info: FetchConnectionInfo = {}) {
    super()
    const url = new URL(request.url)
    this.method = request.method
    this.url = `${url.pathname}${url.search}`
    this.headers = nodeHeaders(request, url)
    this.rawHeaders = rawHeaders(this.headers)
    this.socket = Object.freeze({
      remoteAddress: info.remoteAddress,
      encrypted: url.protocol === 'https:',
    })
    // Locked only once the engine reads it: a request no route takes keeps its body for the
    // runtime's next handler (Hono's `next()`).
    this.#body = request.body
    if (this.#body === null) {
      this.complete = true
      this.push(null)
    }
    const { signal } = request
    if (signal.aborted) queueMicrotask(() => this.#abort())
    else signal.addEventListener('abort', () => this.#abort(), { once: true })
  }

  override _read(): void {
    if (this.#body === null || this.#reading) return
    this.#reader ??= this.#body.getReader()
    const reader = this.#reader
    this.#reading = true
    reader.read().then(
      ({ done, value }) => {
        this.#reading = false
        if (done) {
          this.complete = true
          this.push(null)
        } else if (value.byteLength === 0) {
          this._read()
        } else {
          this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength))
        }
      },
      (error: unknown) => {
        this.#reading = false
        this.destroy(error instanceof Error ? error : new Error(String(error)))
      },
    )
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // An unread upload is released, so the runtime does not keep it buffered.
    if (!this.complete) this.#reader?.cancel().catch(() => {})
    callback(error)
  }

  /** The client went away: Node's `IncomingMessage` says `'aborted'`, then closes. */
  #abort(): void {
    if (this.complete || this.destroyed) return
    this.aborted = true
    this.emit('aborted')
    this.destroy()
  }
}
