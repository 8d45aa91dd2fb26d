import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocketServer } from 'ws'

/** One request as the target saw it. */
export interface SeenRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
}

/** A backend that records everything it receives and survives what a fuzzer sends through a proxy. */
export interface RecordingTarget {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Every HTTP request received, in order (upgrades excluded). */
  readonly requests: SeenRequest[]
  /** The URL of every WebSocket upgrade received, in order. */
  readonly upgrades: string[]
  close(): Promise<void>
}

/** Answers with the request as JSON once its body is read; a request that breaks off gets nothing. */
async function echo(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer)
  } catch {
    // The proxy dropped the request (its client went away): nothing to answer.
    return
  }
  const body = JSON.stringify({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: Buffer.concat(chunks).toString('latin1'),
  })
  res.writeHead(200, { 'content-type': 'application/json', 'x-answered-by': 'target' })
  res.end(body)
}

/**
 * Starts the target the hostile suites proxy to, on 127.0.0.1 port 0: it records every request
 * and WebSocket upgrade, answers HTTP with an echo (`x-answered-by: target`) and WebSockets with
 * an echo. Unlike the adapter suites' target, it expects garbage: request bodies that break
 * off, WebSocket frames that are not frames (bytes pipelined behind an upgrade reach it through
 * the tunnel) are ignored, never thrown into the test process.
 *
 * @example
 * const target = await startRecordingTarget()
 * target.requests // [{ method: 'GET', url: '/base/x', headers: {...} }]
 */
export async function startRecordingTarget(): Promise<RecordingTarget> {
  const requests: SeenRequest[] = []
  const upgrades: string[] = []
  const connections = new Set<Socket>()
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    res.on('error', () => undefined)
    void echo(req, res)
  })
  server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })
  server.on('upgrade', (req: IncomingMessage) => upgrades.push(req.url ?? ''))
  server.on('clientError', (_error, socket) => socket.destroy())
  const sockets = new WebSocketServer({ server })
  sockets.on('error', () => undefined)
  sockets.on('wsClientError', (_error, socket) => socket.destroy())
  sockets.on('connection', (socket, req) => {
    socket.on('error', () => socket.terminate())
    socket.send(JSON.stringify({ url: req.url }))
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    upgrades,
    async close() {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      for (const socket of connections) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
