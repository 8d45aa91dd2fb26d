import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { INSPECTOR_ANSWER_HEADER, INSPECTOR_BASE } from '@cors-dev-proxy/core/adapter'

/** A request to the inspector that did not give the answer asked for; its message is for the agent. */
export class InspectorError extends Error {
  override readonly name = 'InspectorError'
  /** The status of cors-dev-proxy's answer; `undefined` when it did not answer (nothing did, or another server). */
  readonly status: number | undefined

  constructor(message: string, status?: number) {
    super(message)
    this.status = status
  }
}

/** Options of {@link createInspectorClient}. */
export interface InspectorClientOptions {
  /** Milliseconds a request may take before it fails. @default 10000 */
  readonly timeout?: number
}

/** The dev server's inspector API (`/__cors-dev-proxy/…`), as a client outside the browser calls it. */
export interface InspectorClient {
  /** The dev server's origin, e.g. `http://localhost:5173`. */
  readonly origin: string
  /**
   * `GET` (or `POST` with a JSON body) of a path under `/__cors-dev-proxy`; resolves with the
   * parsed JSON of a 2xx answer, rejects with an {@link InspectorError} saying what went wrong
   * and what to do.
   */
  call(method: 'GET' | 'POST', path: string, body?: unknown, timeout?: number): Promise<unknown>
  /**
   * Keeps the inspector's event stream open, as an open inspector page does: the dev server
   * copies request and response bodies only while someone listens. Does nothing while the
   * stream is open; a stream that ended (the dev server restarted) is opened again. Resolves
   * with whether the stream is open (never rejects: the tools report an unreachable dev server).
   */
  listen(): Promise<boolean>
  /** Whether the event stream is open. */
  readonly listening: boolean
  /** Closes the event stream. */
  close(): void
}

/** The most a JSON answer may hold: the inspector's list with bodies stays far below it. */
const ANSWER_LIMIT = 32 * 1024 * 1024

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: a dev server whose self-signed certificate is trusted. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host)
}

/** A request that got no answer in time. */
class NoAnswer extends Error {}

/** What a failed request means for the agent: the URL, the cause, and how to get the dev server up. */
function unreachable(origin: string, error: NodeJS.ErrnoException): InspectorError {
  if (error instanceof NoAnswer) {
    return new InspectorError(
      `the dev server at ${origin} did not answer ${error.message}: is it stuck, or busy starting?`,
    )
  }
  const cause =
    error.code === 'ECONNREFUSED'
      ? 'connection refused'
      : error.code === 'ENOTFOUND'
        ? 'host not found'
        : (error.code ?? error.message)
  return new InspectorError(
    `cannot reach the dev server at ${origin} (${cause}): start it (e.g. \`npm run dev\`) and call this tool again, or restart the MCP server with the dev server's URL: cors-dev-proxy mcp --url http://localhost:5173`,
  )
}

/** The body of an answer that is not 2xx, as one line: its JSON `error`, else its text. */
function reasonOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown }
    if (typeof parsed?.error === 'string') return parsed.error
  } catch {
    // Not JSON: the text itself.
  }
  return text
    .trim()
    .replace(/^cors-dev-proxy: /, '')
    .slice(0, 300)
}

/**
 * Why an answer that is not 2xx came back, in words that say what to do. `ours` says whether
 * cors-dev-proxy's inspector gave it (its header): a 404 from anything else means that `--url`
 * names a server without cors-dev-proxy, whatever that server wrote in its body.
 */
function refusal(
  origin: string,
  method: string,
  path: string,
  answer: { status: number; text: string; ours: boolean },
): InspectorError {
  const { status, text, ours } = answer
  const reason = reasonOf(text)
  const asked = `${method} ${INSPECTOR_BASE}${path}`
  if (status === 404 && !ours) {
    return new InspectorError(
      `${origin} answered 404 to ${asked}: is it the dev server that runs cors-dev-proxy (check the port), and is cors-dev-proxy in its config?`,
    )
  }
  if (status === 403) {
    return new InspectorError(
      `${origin} refused ${asked} (403${reason === '' ? '' : `: ${reason}`}): if the dev server's host check refused the host, pass a host it allows, e.g. --url http://localhost:<port>`,
      status,
    )
  }
  return new InspectorError(
    `${origin} answered ${status} to ${asked}${reason === '' ? '' : `: ${reason}`}`,
    status,
  )
}

/**
 * The parsed JSON of a 2xx answer; an {@link InspectorError} for any other answer, one that is not
 * JSON, or one over 32 MiB (the request is destroyed, its `error` event says why).
 */
function readAnswer(
  req: ClientRequest,
  res: IncomingMessage,
  asked: { origin: string; method: string; path: string },
): Promise<unknown> {
  const { method, path } = asked
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > ANSWER_LIMIT)
        req.destroy(new InspectorError(`the answer to ${method} ${INSPECTOR_BASE}${path} is over 32 MiB`))
      else chunks.push(chunk)
    })
    res.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const status = res.statusCode ?? 0
      if (status < 200 || status > 299) {
        const ours = res.headers[INSPECTOR_ANSWER_HEADER] !== undefined
        reject(refusal(asked.origin, method, path, { status, text, ours }))
        return
      }
      try {
        resolve(JSON.parse(text))
      } catch {
        reject(
          new InspectorError(
            `${asked.origin}${INSPECTOR_BASE}${path} did not answer JSON: is it a cors-dev-proxy dev server?`,
          ),
        )
      }
    })
  })
}

/**
 * A client of the inspector's HTTP API on the dev server at `origin`. It calls the API as the
 * inspector's guard allows a client outside the browser: no `Sec-Fetch-Site`, and on a `POST` an
 * `Origin` that is the dev server's own (the origin it addresses), as its own pages send. A
 * self-signed certificate is trusted on a loopback address only, as the replayer does.
 *
 * @example
 * const inspector = createInspectorClient('http://localhost:5173')
 * const exchanges = await inspector.call('GET', '/exchanges')
 */
export function createInspectorClient(origin: string, options: InspectorClientOptions = {}): InspectorClient {
  const base = new URL(origin)
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest
  const rejectUnauthorized = !isLoopbackHost(base.hostname)
  const timeout = options.timeout ?? 10_000
  let stream: ClientRequest | undefined
  let opened: Promise<boolean> = Promise.resolve(false)

  function open(method: string, path: string, headers: Record<string, string>): ClientRequest {
    return send(new URL(`${INSPECTOR_BASE}${path}`, base), { method, headers, rejectUnauthorized })
  }

  function call(method: 'GET' | 'POST', path: string, body?: unknown, limit = timeout): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (method === 'POST') {
      headers.origin = base.origin
      headers['content-type'] = 'application/json'
    }
    return new Promise((resolve, reject) => {
      const req = open(method, path, headers)
      req.setTimeout(limit, () => req.destroy(new NoAnswer(`within ${limit / 1000} s`)))
      req.once('error', (error: NodeJS.ErrnoException) =>
        reject(error instanceof InspectorError ? error : unreachable(base.origin, error)),
      )
      req.once('response', (res: IncomingMessage) => {
        readAnswer(req, res, { origin: base.origin, method, path }).then(resolve, reject)
      })
      req.end(payload)
    })
  }

  return {
    origin: base.origin,
    call,
    get listening() {
      return stream !== undefined
    },
    listen() {
      if (stream !== undefined) return opened
      const req = open('GET', '/events', { accept: 'text/event-stream' })
      stream = req
      opened = new Promise<boolean>((resolve) => {
        const ended = () => {
          if (stream === req) stream = undefined
          resolve(false)
        }
        // The stream must not keep the process alive once the MCP client is gone.
        req.once('socket', (socket) => socket.unref())
        // A bound on the wait for the head only: an open stream may stay quiet (heartbeats every 15 s).
        req.setTimeout(timeout, () => req.destroy())
        req.once('error', ended)
        req.once('close', ended)
        req.once('response', (res: IncomingMessage) => {
          // The dev server subscribed before it sent this head: from now on, bodies are kept.
          resolve(res.statusCode === 200)
          req.setTimeout(0)
          if (res.statusCode !== 200) req.destroy()
          // The events themselves are not read: the list is asked for when a tool needs it.
          res.resume()
        })
      })
      req.end()
      return opened
    },
    close() {
      stream?.destroy()
      stream = undefined
    },
  }
}
