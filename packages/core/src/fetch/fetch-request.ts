/*
 * fetch/: the Fetch front end's translation, never a second engine (proxy/create-fetch-handler.ts
 * uses it). A `Request` as the `IncomingMessage` the engine reads (here; behind @hono/node-server,
 * node:http's own request while nothing built its `Request`: `nodeRequestOf`); the engine's
 * `ServerResponse` as a `Response` (fetch-response.ts, its head laid out by response-head.ts);
 * the options that need a Node server refused at start-up with the fix (refuse-node-options.ts);
 * a runtime's accepted WebSocket piped to the target's (websocket-bridge.ts); an undici
 * `Dispatcher` over the runtime's `fetch` where undici cannot dispatch, as on Bun
 * (fetch-dispatcher.ts). It imports only http/ and config/.
 *
 * A Web `Request` dressed as the `IncomingMessage` the engine reads, so the Fetch front end
 * runs the very steps the Node one runs. Only what the engine reads is here: the request line,
 * the headers as Node lays them out, the socket's address and TLS flag, and the body as a
 * `Readable` that pulls from `request.body` one chunk per `_read` (back-pressure: nothing is
 * read from the client while the upstream side is full).
 */
import { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'

/** The `node:http` response a runtime on Node answers through: its `'close'` before the end means the client left. */
export interface NodeOutgoing {
  readonly writableFinished: boolean
  once(event: 'close', listener: () => void): unknown
}

/** The members of a `node:http` `IncomingMessage` the Fetch front end may read. */
export interface NodeIncoming {
  readonly socket?: { readonly remoteAddress?: string | undefined; readonly encrypted?: boolean } | undefined
  readonly method?: string | undefined
  readonly url?: string | undefined
  readonly httpVersionMajor?: number | undefined
  readonly headers?: Record<string, string | string[] | undefined> | undefined
  readonly rawHeaders?: string[] | undefined
}

/**
 * What the runtime knows about the connection and `Request` does not carry. On Node,
 * @hono/node-server's `c.env` (`{ incoming, outgoing }`) is one as it is: with `outgoing` the
 * client's leaving is read from its `'close'` rather than from `request.signal`, which its
 * lightweight `Request` can only give by building the full `Request` it stands for.
 */
export interface FetchConnectionInfo {
  /** The client's address (`server.requestIP(req).address` on Bun, `info.remoteAddr.hostname` on Deno). */
  readonly remoteAddress?: string | undefined
  /**
   * The `node:http` request the `Request` was made from: the client's address, when
   * `remoteAddress` is not given, and the request line and headers, when the `Request` is
   * @hono/node-server's lightweight one and nothing has read or changed its headers yet.
   */
  readonly incoming?: NodeIncoming | undefined
  /** The `node:http` response the `Response` will be written to. */
  readonly outgoing?: NodeOutgoing | undefined
}

/**
 * The body of a `Request`, read only when it can have one: a GET or HEAD `Request` has none (the
 * constructor refuses one), and asking @hono/node-server's lightweight `Request` for its body
 * builds the full `Request` it stands for.
 */
function bodyOf(request: Request, method: string): ReadableStream<Uint8Array> | null {
  return method === 'GET' || method === 'HEAD' ? null : request.body
}

/** Node's layout of headers: lowercase names, repeats joined, `set-cookie` as a list. */
function nodeHeaders(request: Request, url: URL, hasBody: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null)
  let cookies: string[] | undefined
  // `Headers` already joins repeated fields with ", " and lowercases names, as Node does; its
  // iteration yields each Set-Cookie apart (Fetch, "sort and combine"), so one pass is enough.
  for (const [name, value] of request.headers) {
    if (name !== 'set-cookie') headers[name] = value
    else if (cookies === undefined) cookies = [value]
    else cookies.push(value)
  }
  // `Headers` joins repeated Cookie fields (HTTP/2 sends one per cookie) with ", ", Node and
  // RFC 9113 section 8.2.3 with "; ". A cookie-octet has no comma or space (RFC 6265 section
  // 4.1.1), so ", " there can only be the join.
  if (headers.cookie !== undefined) headers.cookie = (headers.cookie as string).replaceAll(', ', '; ')
  if (cookies !== undefined) headers['set-cookie'] = cookies
  // A `Request` built from a URL (a test, Hono's `app.request`) has no Host; HTTP/1.1 always does.
  if (headers.host === undefined) headers.host = url.host
  // A streamed body has neither length nor framing in `Headers`: say it is chunked, as the
  // wire did, so the engine knows a body follows (RFC 9112 section 6.3).
  if (hasBody && headers['content-length'] === undefined) headers['transfer-encoding'] ??= 'chunked'
  return headers
}

/**
 * @hono/node-server's key from its lightweight `Request` to the `incoming` it was made from,
 * found by its description on the first such request, then compared by identity.
 */
let incomingKey: symbol | undefined

/** The symbol among `keys` described as `description`. */
function keyOf(keys: readonly symbol[], description: string): symbol | undefined {
  for (const key of keys) if (key.description === description) return key
  return undefined
}

/**
 * `incoming` when its head is exactly the `Request`'s, so it can be read as it is: an HTTP/1
 * request, and `request` @hono/node-server's lightweight `Request` made from it whose headers
 * nothing has built yet (once built they can be changed, and the full `Request` may be another
 * one). Building them is most of what the adapter costs a small GET: a `Headers` object filled
 * field by field, which this front end would only turn back into Node's layout. An untouched one
 * carries two keys, to `incoming` and to its URL; building its headers or the full `Request` adds
 * more, so any other count is read as touched.
 */
function untouchedIncoming(request: Request, incoming: NodeIncoming | undefined): NodeIncoming | undefined {
  if (incoming?.httpVersionMajor !== 1 || incoming.rawHeaders === undefined) return undefined
  if (incoming.headers === undefined || incoming.url?.[0] !== '/') return undefined
  const keys = Object.getOwnPropertySymbols(request)
  if (keys.length !== 2) return undefined
  incomingKey ??= keyOf(keys, 'incomingKey')
  if (incomingKey === undefined || (request as unknown as Record<symbol, unknown>)[incomingKey] !== incoming)
    return undefined
  return incoming.method === request.method ? incoming : undefined
}

/**
 * The `node:http` request itself, for the engine to read as the Node front end reads one, when
 * `request` is @hono/node-server's lightweight `Request` made from it and nothing has built its
 * headers or its full `Request` yet (so nothing has changed the head or read the body either),
 * and `outgoing` is there to tell when the client leaves. A look-alike in between would only
 * copy what `incoming` already is, a `Readable` per request; the body then streams from the
 * socket as on Node, not through a `ReadableStream` made from it.
 *
 * @example
 * const req = nodeRequestOf(request, env) ?? new FetchRequest(request, env, res)
 */
export function nodeRequestOf(
  request: Request,
  info: FetchConnectionInfo | undefined,
): IncomingMessage | undefined {
  if (info?.outgoing === undefined || info.remoteAddress !== undefined) return undefined
  const { incoming } = info
  if (!(incoming instanceof IncomingMessage) || incoming.readableDidRead) return undefined
  return untouchedIncoming(request, incoming) === undefined ? undefined : incoming
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
 * Calls `leave` when the client goes before its answer was written whole (`outgoing` closes
 * unfinished), a microtask later: the runtime's own `close` listeners run first, and
 * @hono/node-server's cancels the body it is writing, which ends the answer quietly, where the
 * body failing under it would be printed as an error of the server.
 *
 * @example
 * onClientLeaving(env.outgoing, () => res.destroy())
 */
export function onClientLeaving(outgoing: NodeOutgoing, leave: () => void): void {
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) queueMicrotask(leave)
  })
}

/** The answer a request's client can leave: abandoned when it does, unless it has ended. */
export interface AbandonableAnswer {
  readonly writableEnded: boolean
  /** Ends the answer nobody will read, with no error for the runtime to print. */
  abandon(): unknown
}

/**
 * The engine's view of a Web `Request`: an HTTP/1.1 `IncomingMessage` look-alike whose body
 * streams from `request.body`. When the client goes (`request.signal` aborts) it is
 * destroyed, which emits `'aborted'` and `'close'` as Node's does, and `answer`, its response,
 * is abandoned: the forwarder aborts its upstream request. It is itself the signal's listener
 * (`handleEvent`), so no closure is made per request.
 *
 * @example
 * const req = new FetchRequest(request, { remoteAddress: '127.0.0.1' }, res)
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
  readonly #answer: AbandonableAnswer | undefined

  constructor(request: Request, info: FetchConnectionInfo = {}, answer?: AbandonableAnswer) {
    super()
    this.method = request.method
    this.#body = bodyOf(request, this.method)
    const remoteAddress = info.remoteAddress ?? info.incoming?.socket?.remoteAddress
    const node = untouchedIncoming(request, info.incoming)
    if (node !== undefined) {
      this.url = node.url as string
      this.headers = node.headers as Record<string, string | string[]>
      this.rawHeaders = node.rawHeaders as string[]
      this.socket = Object.freeze({ remoteAddress, encrypted: node.socket?.encrypted === true })
    } else {
      const url = new URL(request.url)
      this.url = `${url.pathname}${url.search}`
      this.headers = nodeHeaders(request, url, this.#body !== null)
      this.rawHeaders = rawHeaders(this.headers)
      this.socket = Object.freeze({ remoteAddress, encrypted: url.protocol === 'https:' })
    }
    this.#answer = answer
    // The body is locked only once the engine reads it: a request no route takes keeps it for
    // the runtime's next handler (Hono's `next()`).
    if (this.#body === null) {
      this.complete = true
      this.push(null)
    }
    this.#watchClient(request, info.outgoing)
  }

  /** Listens for the client's leaving, once: on `outgoing` when there is one, else on the signal. */
  #watchClient(request: Request, outgoing: NodeOutgoing | undefined): void {
    if (outgoing !== undefined) {
      onClientLeaving(outgoing, () => this.handleEvent())
      return
    }
    const { signal } = request
    if (signal.aborted) queueMicrotask(() => this.handleEvent())
    else signal.addEventListener('abort', this, { once: true })
  }

  /** The client went away (the request's signal aborted, or `outgoing` closed before its end). */
  handleEvent(): void {
    this.#abort()
    if (this.#answer !== undefined && !this.#answer.writableEnded) this.#answer.abandon()
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
