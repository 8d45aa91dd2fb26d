import {
  type Agent as HttpAgent,
  type Server as HttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http'
import {
  connect as connectHttp2,
  type IncomingHttpHeaders as Http2IncomingHeaders,
  type Http2SecureServer,
  type Http2Server,
} from 'node:http2'
import { type Server as HttpsServer, request as httpsRequest } from 'node:https'
import type { AddressInfo, Server as NetServer, Socket } from 'node:net'
import type { Readable } from 'node:stream'
import type { LogSink } from '@cors-dev-proxy/core'

/** Any server that listens on a TCP port: net, http, https, http2. */
export type ListeningServer = NetServer | HttpServer | HttpsServer | Http2Server | Http2SecureServer

/** A started server, its base URL (`http://127.0.0.1:<port>`) and a close that also ends open connections. */
export interface StartedServer<S extends ListeningServer> {
  server: S
  port: number
  /** `<scheme>://127.0.0.1:<port>` with the scheme given to {@link listen}. */
  url: string
  close(): Promise<void>
}

/**
 * Listens on `127.0.0.1` port 0 and resolves with the chosen port and URL. `close()` destroys open
 * sockets first, so a keep-alive client or a half-open upload cannot hold the test up.
 *
 * @example
 * const target = await listen(http.createServer((req, res) => res.end('ok')))
 * afterEach(() => target.close())
 */
export async function listen<S extends ListeningServer>(
  server: S,
  scheme = 'http',
): Promise<StartedServer<S>> {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }
  // TLS servers report the raw TCP socket on 'connection' too, which is the one to destroy.
  server.on('connection', track)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/**
 * Collects a stream into one Buffer. For small test bodies only: large transfers should be hashed
 * as they stream.
 *
 * @example
 * const text = (await collectBody(res)).toString()
 */
export async function collectBody(stream: Readable | AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** A {@link LogSink} that records every line, with its level, for assertions. */
export interface CapturingLogSink extends LogSink {
  readonly lines: Array<{ level: 'info' | 'warn' | 'error'; message: string }>
  /** Every recorded message, colours stripped, joined with newlines. */
  text(): string
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what is stripped here.
const ansi = /\u001b\[[0-9;]*m/g

/**
 * A log sink that keeps lines in memory, so a test can assert what the proxy logged.
 *
 * @example
 * const sink = captureLogSink()
 * createCorsDevProxy(routes, { logger: sink })
 * expect(sink.text()).toContain('connection refused')
 */
export function captureLogSink(): CapturingLogSink {
  const lines: CapturingLogSink['lines'] = []
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message: message.replace(ansi, '') }),
    warn: (message) => lines.push({ level: 'warn', message: message.replace(ansi, '') }),
    error: (message) => lines.push({ level: 'error', message: message.replace(ansi, '') }),
    text: () => lines.map((line) => line.message).join('\n'),
  }
}

/** A whole answer as a test client read it. */
export interface TestResponse {
  status: number
  headers: IncomingHttpHeaders | Http2IncomingHeaders
  body: Buffer
}

/** What {@link sendRequest} sends. */
export interface TestRequestInit {
  method?: string
  headers?: OutgoingHttpHeaders
  body?: string | Buffer
  /** An `http.Agent` to reuse connections; a fresh connection when unset. */
  agent?: HttpAgent | false
}

/**
 * Sends one HTTP/1.1 request with `node:http` (or `node:https`, accepting a self-signed
 * certificate) and resolves with the response as soon as its head arrives. Unlike undici and
 * fetch, `node:http` lets a test send `Connection`, `Keep-Alive`, `Upgrade` and other
 * hop-by-hop headers.
 *
 * @example
 * const res = await openRequest(`${proxy.url}/api/events`)
 */
export function openRequest(url: string, init: TestRequestInit = {}): Promise<IncomingMessage> {
  const target = new URL(url)
  const options = { method: init.method ?? 'GET', headers: init.headers, agent: init.agent ?? false }
  const req =
    target.protocol === 'https:'
      ? httpsRequest(target, { ...options, rejectUnauthorized: false })
      : httpRequest(target, options)
  return new Promise((resolve, reject) => {
    req.once('response', resolve)
    req.once('error', reject)
    req.end(init.body)
  })
}

/**
 * Sends one HTTP/1.1 request (see {@link openRequest}) and reads the whole answer.
 *
 * @example
 * const { status, body } = await sendRequest(`${proxy.url}/api/users`, { headers: { accept: 'application/json' } })
 */
export async function sendRequest(url: string, init: TestRequestInit = {}): Promise<TestResponse> {
  const res = await openRequest(url, init)
  return { status: res.statusCode ?? 0, headers: res.headers, body: await collectBody(res) }
}

/**
 * Sends one request over a fresh `node:http2` session (TLS with a self-signed certificate
 * accepted, or h2c for an `http:` URL), reads the whole answer and closes the session.
 *
 * @example
 * const { status, headers } = await sendHttp2Request(`${proxy.url}/api/users`, { ':method': 'POST' }, 'body')
 */
export async function sendHttp2Request(
  url: string,
  headers: OutgoingHttpHeaders = {},
  body?: string | Buffer,
): Promise<TestResponse> {
  const target = new URL(url)
  const session = connectHttp2(target.origin, { rejectUnauthorized: false })
  try {
    const stream = session.request({ ':path': `${target.pathname}${target.search}`, ...headers })
    const head = new Promise<Http2IncomingHeaders>((resolve, reject) => {
      stream.once('response', resolve)
      stream.once('error', reject)
    })
    stream.end(body)
    const responseHeaders = await head
    return {
      status: Number(responseHeaders[':status']),
      headers: responseHeaders,
      body: await collectBody(stream),
    }
  } finally {
    session.close()
  }
}
