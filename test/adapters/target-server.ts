import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import { REFUSED_PORT, refusedUrl } from '../support/refused-port.js'

/** One request as the target saw it. */
export interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

/** What the target answers to `GET` and `PUT`: the request as it arrived. */
export interface EchoBody extends SeenRequest {
  body: string
}

/** A real HTTP/1.1 backend on 127.0.0.1 with an echo, redirects, a gated event stream and a WebSocket echo. */
export interface TargetServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Every HTTP request received, in order (upgrades excluded). */
  readonly requests: SeenRequest[]
  /** The URL of every WebSocket upgrade received, in order. */
  readonly upgrades: string[]
  /**
   * Lets the event stream that is waiting write its second event and end. The stream at
   * `/events` writes event 1, then waits for this call, so a test can check that event 1
   * reached the client while the target has not written anything else.
   */
  releaseEvents(): void
  close(): Promise<void>
}

/** The `Alt-Svc` the target advertises (RFC 7838), which must reach the browser unchanged. */
export const TARGET_ALT_SVC = 'h3=":443"; ma=86400'

/**
 * Starts the backend the adapter suites proxy to. Every answer carries `Alt-Svc` and an
 * explicit `Keep-Alive` header (RFC 9112 connection options, forbidden on HTTP/2), so HTTP/2
 * tests prove the proxy strips it instead of resetting the browser's stream.
 */
export async function startTargetServer(): Promise<TargetServer> {
  const requests: SeenRequest[] = []
  const upgrades: string[] = []
  let release: (() => void) | undefined
  let released = false
  let port = 0

  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    res.setHeader('alt-svc', TARGET_ALT_SVC)
    res.setHeader('keep-alive', 'timeout=5, max=1000')
    res.setHeader('connection', 'keep-alive')
    if (req.method === 'OPTIONS') return answerPreflight(req, res)
    if (req.url?.startsWith('/redirect/')) {
      // A redirect the way backends write them: absolute to itself, or path-absolute.
      const absolute = req.url === '/redirect/absolute'
      res.writeHead(302, { location: absolute ? `http://127.0.0.1:${port}/posts` : '/posts' })
      res.end()
      return
    }
    if (req.url === '/events') {
      released = false
      return streamEvents(res, new Promise<void>((resolve) => (release = resolve)))
    }
    void echo(req, res)
  })
  server.on('upgrade', (req: IncomingMessage) => upgrades.push(req.url ?? ''))
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket, req) => {
    socket.send(JSON.stringify({ url: req.url, protocol: socket.protocol, headers: req.headers }))
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }))
  })

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    upgrades,
    releaseEvents() {
      if (released) return
      released = true
      release?.()
    },
    async close() {
      release?.()
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

/** The backend's own preflight answer, marked so a test can tell it from a dev server's. */
function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-allow-methods': 'GET, PUT',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
    'x-answered-by': 'target',
  })
  res.end()
}

async function echo(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body: EchoBody = {
    method: req.method ?? '',
    url: req.url ?? '',
    headers: req.headers,
    body: Buffer.concat(chunks).toString(),
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-answered-by': 'target' })
  res.end(JSON.stringify(body))
}

/**
 * Server-sent events (HTML standard, section 9.2): the headers are flushed before any event,
 * so a compressing middleware cannot decide from a first chunk's size to leave it alone.
 */
async function streamEvents(res: ServerResponse, gate: Promise<void>): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  res.flushHeaders()
  res.write('id: 1\ndata: one\n\n')
  await gate
  if (res.destroyed) return
  res.end('id: 2\ndata: two\n\n')
}

/**
 * A port that nothing listens on: port 2 (test/support/refused-port.ts), checked to refuse. A port
 * bound at 0 and released could be handed to another test's server before the request.
 */
export async function closedPort(): Promise<number> {
  await refusedUrl()
  return REFUSED_PORT
}
