/*
 * An undici `Dispatcher` look-alike over the runtime's own `fetch`, for a runtime whose undici
 * has no `dispatch()` on its pools (Bun's built-in one): the forwarder keeps driving its
 * handler (`onConnect`, `onHeaders`, `onData`, `onComplete`, `onError`) and nothing above it
 * changes. What `fetch` cannot do is lost there (the docs' "Bun, Deno and Hono" page lists it):
 * HTTP/2 to the target, early answers (the head is read once the body was sent), redirects
 * followed by the proxy (`redirect: 'manual'` hands them to the browser), and compression
 * between proxy and target (`Accept-Encoding: identity`, since `fetch` would decompress the
 * body under the target's `Content-Encoding`).
 */
import { EventEmitter } from 'node:events'
import type { Dispatcher } from 'undici'
import { Pool } from 'undici'

/** Fields `fetch` frames or refuses itself (RFC 9110 section 7.6.1). */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'accept-encoding',
])

/** Codes of the runtimes' `fetch` errors, as the forwarder's failure table names them (Node's). */
const CODES: Readonly<Record<string, string>> = {
  ConnectionRefused: 'ECONNREFUSED',
  ConnectionClosed: 'ECONNRESET',
  FailedToOpenSocket: 'ECONNREFUSED',
  ECONNREFUSED: 'ECONNREFUSED',
  ECONNRESET: 'ECONNRESET',
  ENOTFOUND: 'ENOTFOUND',
}

/**
 * Whether this runtime's undici can forward: its pools have `dispatch()`. A feature test, not
 * a runtime's name, so a Bun that gains it forwards through undici again.
 *
 * @example
 * const pool = undiciDispatches() ? {} : { dispatcherFor: createFetchDispatcher }
 */
export function undiciDispatches(): boolean {
  return typeof (Pool.prototype as { dispatch?: unknown }).dispatch === 'function'
}

function outgoingHeaders(headers: Dispatcher.DispatchOptions['headers']): Headers {
  const out = new Headers()
  const add = (name: string, value: unknown): void => {
    if (value === undefined || DROPPED.has(name.toLowerCase())) return
    for (const item of Array.isArray(value) ? value : [value]) out.append(name, String(item))
  }
  if (Array.isArray(headers))
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1])
  else if (headers != null && typeof headers === 'object')
    for (const [name, value] of Object.entries(headers)) add(name, value)
  out.set('accept-encoding', 'identity')
  return out
}

function outgoingBody(body: Dispatcher.DispatchOptions['body']): BodyInit | null {
  if (body === undefined || body === null) return null
  if (typeof body === 'string' || body instanceof Uint8Array) return body as BodyInit
  // A stream (the client's upload) or an async iterable: pulled one chunk per read (back-pressure).
  const chunks = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next()
      if (done) controller.close()
      else controller.enqueue(typeof value === 'string' ? Buffer.from(value) : value)
    },
    async cancel(reason) {
      await chunks.return?.(reason)
    },
  }) as BodyInit
}

/** The head as undici hands it over: a flat `[name, value, …]` list of buffers, `Set-Cookie` one per line. */
function rawHeaders(headers: Headers): Buffer[] {
  const raw: Buffer[] = []
  for (const [name, value] of headers)
    if (name !== 'set-cookie') raw.push(Buffer.from(name), Buffer.from(value))
  for (const cookie of headers.getSetCookie()) raw.push(Buffer.from('set-cookie'), Buffer.from(cookie))
  return raw
}

/** A `fetch` failure with the code the forwarder's failure table knows, so the 502's hint is the same. */
function asUpstreamError(error: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error))
  const cause = (failure as { cause?: { code?: unknown } }).cause
  const code = String(cause?.code ?? (failure as { code?: unknown }).code ?? '')
  const mapped = CODES[code]
  if (mapped === undefined || (failure as { code?: unknown }).code === mapped) return failure
  return Object.assign(new Error(failure.message, { cause: failure }), { code: mapped })
}

/** Reads the body into the handler, waiting for `resume` whenever it says it is full. */
async function relayBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  handler: Dispatcher.DispatchHandler,
  waitResume: () => Promise<void>,
) {
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    if (handler.onData?.(chunk) === false) await waitResume()
  }
}

/** One request through `fetch`, driving an undici dispatch handler. */
async function fetchInto(
  origin: string,
  options: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  controller: AbortController,
): Promise<void> {
  let aborted: Error | undefined
  let resumed: (() => void) | undefined
  const waitResume = () =>
    new Promise<void>((resolve) => {
      resumed = resolve
    })
  const abort = (reason?: Error): void => {
    aborted ??= reason ?? new Error('aborted')
    controller.abort(aborted)
    // A body paused for the client must not wait for a resume that will not come: the next
    // read fails with the abort, which reaches the handler's onError.
    resumed?.()
  }
  controller.signal.addEventListener('abort', () => abort(controller.signal.reason as Error), { once: true })
  handler.onConnect?.(abort)
  try {
    if (aborted !== undefined) throw aborted
    const response = await fetch(new URL(options.path, origin), {
      method: options.method,
      headers: outgoingHeaders(options.headers),
      body: outgoingBody(options.body),
      redirect: 'manual',
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit)
    const resume = () => resumed?.()
    const go = handler.onHeaders?.(response.status, rawHeaders(response.headers), resume, response.statusText)
    if (response.body === null) {
      handler.onComplete?.([])
      return
    }
    if (go === false) await waitResume()
    await relayBody(response.body.getReader(), handler, waitResume)
    handler.onComplete?.([])
  } catch (error) {
    handler.onError?.(aborted ?? asUpstreamError(error))
  }
}

/**
 * A dispatcher to `origin` that sends each request with the runtime's `fetch`: `dispatch`,
 * a minimal `request` (the forwarder's probe of a target), `close` and `destroy`.
 *
 * @example
 * createUpstreamPool({ dispatcherFor: (origin) => createFetchDispatcher(origin) })
 */
export function createFetchDispatcher(origin: string): Dispatcher {
  const inFlight = new Map<Promise<void>, AbortController>()
  const dispatcher = Object.assign(new EventEmitter(), {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const controller = new AbortController()
      const sent = fetchInto(origin, options, handler, controller).finally(() => inFlight.delete(sent))
      inFlight.set(sent, controller)
      return true
    },
    async request(options: Dispatcher.RequestOptions) {
      const response = await fetch(new URL(options.path, origin), {
        method: options.method,
        headers: outgoingHeaders(options.headers),
        signal: options.signal as AbortSignal | undefined,
        redirect: 'manual',
      })
      await response.body?.cancel()
      return {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers),
        body: { resume() {} },
      }
    },
    async close(): Promise<void> {
      await Promise.all(inFlight.keys())
    },
    async destroy(): Promise<void> {
      for (const controller of inFlight.values()) controller.abort(new Error('the proxy closed'))
      await Promise.all(inFlight.keys())
    },
  })
  return dispatcher as unknown as Dispatcher
}
