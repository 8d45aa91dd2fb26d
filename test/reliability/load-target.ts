import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { WebSocketServer } from 'ws'
import { listen, type StartedServer } from '../support/servers.js'
import { bodyFor, eventsFor, jsonFor, replySeed, sha256 } from './load-bodies.js'

/** What the target has seen, by kind of request. */
export interface TargetCounts {
  bytes: number
  upload: number
  json: number
  events: number
  websocket: number
  /** Every OPTIONS that reached the target: preflights on a `cors` route must be answered by the proxy. */
  options: number
  other: number
}

/** The load test's backend on 127.0.0.1:0, and what it observed. */
export interface LoadTarget extends StartedServer<Server> {
  readonly counts: TargetCounts
  /** Requests whose answer has not finished or been abandoned yet. */
  readonly inFlight: number
  /** WebSocket connections still open on the target's side. */
  readonly openWebSockets: number
  /** Errors the target saw: aborted uploads, client errors, WebSocket errors. */
  readonly errors: string[]
  /** Open TCP connections (`server.getConnections`). */
  connections(): Promise<number>
}

function seedOf(url: URL): number {
  return Number(url.searchParams.get('seed'))
}

/**
 * Starts the target. Every answer is derived from the seed in its URL (see load-bodies.ts) and
 * carries `X-Sent-Sha256`, the hash of what the target wrote; an upload is hashed as it arrives
 * and answered with `X-Received-Sha256` and `X-Received-Bytes`. The WebSocket at `/echo` sends
 * every binary message back, followed by a text message with the hash of what it received.
 */
export async function startLoadTarget(): Promise<LoadTarget> {
  const counts: TargetCounts = { bytes: 0, upload: 0, json: 0, events: 0, websocket: 0, options: 0, other: 0 }
  const errors: string[] = []
  let inFlight = 0

  function handle(req: IncomingMessage, res: ServerResponse): void {
    inFlight++
    // No `Keep-Alive: timeout=` hint (Node writes none once the answer names its connection), so
    // the proxies' pools close idle connections after their own 4 s, far inside the target's 30 s.
    // With the hint the pools kept connections until 2 s before the target closed them, and on a
    // machine loaded by a second test run the one event loop stalled longer than that: a POST
    // written on a connection the target was closing got a 502 (2 in 4,000), and a proxy must
    // not resend a POST (RFC 9112 section 9.3.1). This suite measures load, not that race,
    // which faults-keep-alive-race.test.ts covers.
    res.setHeader('connection', 'keep-alive')
    res.once('close', () => inFlight--)
    req.once('error', (error) => errors.push(`target: ${req.method} ${req.url}: ${error.message}`))
    const url = new URL(req.url ?? '/', 'http://target')
    if (req.method === 'OPTIONS') {
      counts.options++
      res.writeHead(204, { 'x-answered-by': 'target' }).end()
    } else if (url.pathname === '/bytes' && req.method === 'GET') {
      counts.bytes++
      const body = bodyFor(seedOf(url), Number(url.searchParams.get('size')))
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-sent-sha256': sha256(body) })
      res.end(body)
    } else if (url.pathname === '/upload' && req.method === 'POST') {
      counts.upload++
      receiveUpload(req, res, seedOf(url), Number(url.searchParams.get('reply')))
    } else if (url.pathname === '/json' && req.method === 'GET') {
      counts.json++
      res.writeHead(200, { 'content-type': 'application/json' }).end(jsonFor(seedOf(url)))
    } else if (url.pathname === '/events' && req.method === 'GET') {
      counts.events++
      void writeEvents(res, eventsFor(seedOf(url)))
    } else {
      counts.other++
      res.writeHead(404).end()
    }
  }

  function receiveUpload(req: IncomingMessage, res: ServerResponse, seed: number, reply: number): void {
    const hash = createHash('sha256')
    let bytes = 0
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      hash.update(chunk)
    })
    req.once('end', () => {
      const body = bodyFor(replySeed(seed), reply)
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'x-received-sha256': hash.digest('hex'),
        'x-received-bytes': String(bytes),
        'x-sent-sha256': sha256(body),
      })
      res.end(body)
    })
  }

  const server = createServer(handle)
  server.keepAliveTimeout = 30_000
  server.on('clientError', (error, socket) => {
    errors.push(`target: client error: ${error.message}`)
    socket.destroy()
  })
  const sockets = new WebSocketServer({ server, path: '/echo' })
  sockets.on('connection', (socket) => {
    counts.websocket++
    socket.on('error', (error) => errors.push(`target: WebSocket: ${error.message}`))
    socket.on('message', (data: Buffer, isBinary) => {
      socket.send(data, { binary: isBinary })
      socket.send(JSON.stringify({ sha256: sha256(data), bytes: data.length }))
    })
  })

  const started = await listen(server)
  return {
    ...started,
    counts,
    errors,
    get inFlight() {
      return inFlight
    },
    get openWebSockets() {
      return sockets.clients.size
    },
    connections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    async close() {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      await started.close()
    },
  }
}

/**
 * Writes the events one by one, a few milliseconds apart, as a live stream does: the proxy must
 * relay each as it comes rather than wait for the end. The head goes out first (with the hash of
 * the whole stream), as event-stream servers flush it before any event.
 */
async function writeEvents(res: ServerResponse, events: string[]): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-sent-sha256': sha256(events.join('')),
  })
  res.flushHeaders()
  for (const event of events) {
    if (res.destroyed) return
    res.write(event)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  res.end()
}
