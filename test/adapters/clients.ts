import { once } from 'node:events'
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import {
  connect as connectHttp2,
  type IncomingHttpHeaders as Http2Headers,
  constants as http2Constants,
} from 'node:http2'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import WebSocket from 'ws'

/** A complete answer read by a test client. */
export interface ClientResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  /** `'1.1'` or `'2.0'`, as the client saw it. */
  httpVersion: string
}

/** What a test request carries. */
export interface ClientRequest {
  method?: string
  headers?: Record<string, string>
  body?: string
  /** Trusted certificate for an HTTPS dev server (self-signed). */
  ca?: string
}

/**
 * Sends one HTTP/1.1 request (over TLS for `https:`) on a fresh connection and reads the whole
 * answer. A fresh connection per request keeps one test's keep-alive socket out of the next.
 */
export async function send(url: string, init: ClientRequest = {}): Promise<ClientResponse> {
  const res = await open(url, init)
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body: Buffer.concat(chunks).toString(),
    httpVersion: res.httpVersion,
  }
}

/** Sends a request and resolves with the response as soon as its headers arrive (for streams). */
export function open(url: string, init: ClientRequest = {}): Promise<IncomingMessage> {
  const target = new URL(url)
  const requestFn = target.protocol === 'https:' ? httpsRequest : httpRequest
  const req = requestFn(target, {
    method: init.method ?? 'GET',
    headers: init.headers,
    agent: false,
    ...(init.ca ? { ca: init.ca } : {}),
  })
  const response = once(req, 'response').then(([res]) => res as IncomingMessage)
  req.end(init.body)
  return response
}

/** Reads a streamed response while it arrives: everything is kept, nothing is lost between reads. */
export interface StreamReader {
  /** Resolves with everything read so far once `text` has arrived; rejects if the stream ends first. */
  until(text: string): Promise<string>
  /** Resolves with everything read, once the stream has ended. */
  rest(): Promise<string>
}

/**
 * Starts reading a response. Used to prove an event left the dev server before the target
 * wrote the next one: `until` does not wait for the end of the stream.
 */
export function readStream(res: IncomingMessage): StreamReader {
  let seen = ''
  let ended = false
  let failure: Error | undefined
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const waiter of [...waiters]) waiter()
  }
  res.setEncoding('utf8')
  res.on('data', (chunk: string) => {
    seen += chunk
    wake()
  })
  res.on('end', () => {
    ended = true
    wake()
  })
  res.on('error', (error) => {
    failure = error
    wake()
  })
  const when = (done: () => boolean) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (done()) resolve(seen)
        else if (failure || ended)
          reject(failure ?? new Error(`the stream ended; got ${JSON.stringify(seen)}`))
        else return
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  return {
    until: (text) => when(() => seen.includes(text)),
    rest: () => when(() => ended),
  }
}

/** An answer over HTTP/2, with the protocol ALPN chose. */
export interface Http2Response {
  status: number
  headers: Http2Headers
  body: string
  alpnProtocol: string | false | undefined
}

/**
 * Sends one request over a real `node:http2` session (ALPN `h2`) and reads the answer.
 * A stream error (e.g. a forbidden connection header forwarded by the proxy) rejects.
 */
export async function sendHttp2(
  origin: string,
  path: string,
  init: ClientRequest = {},
): Promise<Http2Response> {
  const session = connectHttp2(origin, { ca: init.ca })
  try {
    await once(session, 'connect')
    const stream = session.request({
      [http2Constants.HTTP2_HEADER_METHOD]: init.method ?? 'GET',
      [http2Constants.HTTP2_HEADER_PATH]: path,
      ...init.headers,
    })
    stream.end(init.body)
    const [headers] = (await once(stream, 'response')) as [Http2Headers]
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    return {
      status: Number(headers[':status']),
      headers,
      body: Buffer.concat(chunks).toString(),
      alpnProtocol: session.alpnProtocol,
    }
  } finally {
    session.close()
  }
}

/** A connected WebSocket client and the first message the server sent. */
export interface OpenedSocket {
  socket: WebSocket
  first: string
}

/** Connects a `ws` client and waits for the first message. */
export async function openWebSocket(
  url: string,
  options: { protocols?: string[]; ca?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<OpenedSocket> {
  const socket = new WebSocket(url, options.protocols, {
    ca: options.ca,
    origin: options.origin,
    headers: options.headers,
  })
  return { socket, first: await nextMessage(socket) }
}

/** The next message; rejects when the socket errors or closes first, so a test fails instead of hanging. */
async function nextMessage(socket: WebSocket): Promise<string> {
  const closed = once(socket, 'close').then(([code]) => {
    throw new Error(`the WebSocket closed (${code}) before a message arrived`)
  })
  closed.catch(() => {})
  const [data] = await Promise.race([once(socket, 'message'), closed])
  return String(data)
}

/** Sends a message on an open socket and resolves with the next one received. */
export async function roundTrip(socket: WebSocket, message: string): Promise<string> {
  const reply = nextMessage(socket)
  socket.send(message)
  return reply
}

/** Closes a client socket and waits until it is closed. */
export async function closeWebSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return
  const closed = once(socket, 'close')
  socket.close()
  await closed
}

/** Writes raw bytes to the dev server and resolves with everything it answers before closing (at most 5 s). */
export function rawExchange(origin: string, request: string): Promise<string> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    let answer = ''
    const socket = connect(Number(port), hostname, () => socket.write(request))
    socket.setEncoding('utf8')
    socket.setTimeout(5000, () => socket.destroy())
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}
