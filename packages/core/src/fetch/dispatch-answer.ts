import type { Dispatcher } from 'undici'

/*
 * undici's side of `replayDispatcher`: its dispatch options as a `Request`, and a `Response`
 * (or a failure) written to its handler. A handler comes in one of two shapes: the callbacks
 * Node's built-in `fetch` and undici's own `fetch` pass (`onConnect`, `onHeaders`, `onData`,
 * `onComplete`, `onError`), or undici 7's controller-based ones (`onRequestStart`,
 * `onResponseStart`...); both are driven.
 */

type Handler = Dispatcher.DispatchHandler
type Callback = (...args: unknown[]) => unknown

function headerPairs(headers: unknown): [string, string][] {
  if (headers === null || headers === undefined) return []
  if (Array.isArray(headers)) {
    if (headers.every((item) => Array.isArray(item)))
      return headers.map(([name, value]) => [String(name), String(value)])
    const pairs: [string, string][] = []
    for (let index = 0; index + 1 < headers.length; index += 2)
      pairs.push([String(headers[index]), String(headers[index + 1])])
    return pairs
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return [...(headers as Iterable<[string, string]>)].map(([name, value]) => [name, String(value)])
  }
  return Object.entries(headers as Record<string, unknown>).flatMap(([name, value]) =>
    value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((one) => [name, String(one)] as [string, string]),
  )
}

async function bodyBytes(body: unknown): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (body === null || body === undefined) return undefined
  if (typeof body === 'string') return new TextEncoder().encode(body)
  if (body instanceof Uint8Array) return new Uint8Array(body)
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const chunks: Uint8Array[] = []
    for await (const chunk of body as AsyncIterable<unknown>) {
      chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array))
    }
    return new Uint8Array(Buffer.concat(chunks))
  }
  return undefined
}

/**
 * The `Request` undici's dispatch options describe (its body read whole).
 *
 * @example
 * const request = await requestOf({ origin: 'http://localhost:3000', path: '/api/items', method: 'GET' })
 */
export async function requestOf(opts: Dispatcher.DispatchOptions): Promise<Request> {
  const body = await bodyBytes(opts.body)
  const headers = new Headers()
  for (const [name, value] of headerPairs(opts.headers)) headers.append(name, value)
  return new Request(new URL(opts.path, String(opts.origin)), {
    method: opts.method,
    headers,
    ...(body === undefined || opts.method === 'GET' || opts.method === 'HEAD' ? {} : { body }),
  })
}

/** Calls `name` on `handler` when it has it. */
function call(handler: Handler, name: string, ...args: unknown[]): unknown {
  const method = (handler as Record<string, unknown>)[name]
  return typeof method === 'function' ? (method as Callback).apply(handler, args) : undefined
}

/**
 * Writes `answer` (a `Response`, or an `Error` to fail the request with) to an undici handler, either shape.
 *
 * @example
 * void dispatchAnswer(handler, new Response('ok'))
 */
export async function dispatchAnswer(handler: Handler, answer: Response | Error): Promise<void> {
  let aborted: Error | undefined
  const controller = {
    abort: (reason?: Error) => {
      aborted = reason ?? new Error('aborted')
    },
    pause: () => undefined,
    resume: () => undefined,
    get aborted() {
      return aborted !== undefined
    },
    get paused() {
      return false
    },
    get reason() {
      return aborted ?? null
    },
  }
  const modern = typeof handler.onRequestStart === 'function'
  const fail = (error: Error) =>
    modern ? call(handler, 'onResponseError', controller, error) : call(handler, 'onError', error)
  if (modern) call(handler, 'onRequestStart', controller, {})
  else call(handler, 'onConnect', controller.abort)
  if (aborted !== undefined) return
  if (answer instanceof Error) {
    fail(answer)
    return
  }
  const pairs = [...answer.headers]
  if (modern) {
    const object: Record<string, string | string[]> = {}
    for (const [name, value] of pairs) {
      const previous = object[name]
      object[name] =
        previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
    }
    call(handler, 'onResponseStart', controller, answer.status, object, answer.statusText)
  } else {
    const raw = pairs.flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)])
    call(handler, 'onHeaders', answer.status, raw, controller.resume, answer.statusText)
  }
  try {
    if (answer.body !== null) {
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        if (aborted !== undefined) return
        if (modern) call(handler, 'onResponseData', controller, Buffer.from(chunk))
        else call(handler, 'onData', Buffer.from(chunk))
      }
    }
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)))
    return
  }
  if (aborted !== undefined) return
  if (modern) call(handler, 'onResponseEnd', controller, {})
  else call(handler, 'onComplete', [])
}
