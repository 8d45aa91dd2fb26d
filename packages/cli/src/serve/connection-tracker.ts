import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import type {
  Http2SecureServer,
  Http2ServerRequest,
  Http2ServerResponse,
  ServerHttp2Session,
} from 'node:http2'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'

/** The connections of a server, so it can stop without cutting answers short. */
export interface ConnectionTracker {
  /** Requests being answered right now. */
  readonly inFlight: number
  /**
   * Stops accepting connections, closes the idle ones at once (and WebSockets, which never end by
   * themselves), lets requests in flight finish for at most `graceMs`, then destroys what is
   * left. Resolves once the server has closed.
   */
  close(graceMs: number): Promise<void>
}

/**
 * Tracks an HTTP/1.1 server's or an HTTP/2 server's (with `allowHTTP1`) connections: the raw
 * sockets, the HTTP/1.x connections with their requests in flight, the HTTP/2 sessions, and the
 * upgraded sockets. Node's `server.close()` alone waits for keep-alive connections (and over
 * HTTP/2 for every session) with no upper bound.
 *
 * @example
 * const connections = trackConnections(server)
 * process.once('SIGINT', () => connections.close(3000).then(() => process.exit(0)))
 */
export function trackConnections(server: HttpServer | Http2SecureServer): ConnectionTracker {
  const raw = new Set<Socket>()
  const http1 = new Map<Duplex, number>()
  const sessions = new Set<ServerHttp2Session>()
  const upgraded = new Set<Duplex>()
  let inFlight = 0
  let closing = false

  const forget =
    <T>(set: { delete(value: T): unknown }, value: T) =>
    () =>
      void set.delete(value)
  server.on('connection', (socket: Socket) => {
    raw.add(socket)
    socket.once('close', forget(raw, socket))
  })
  const addHttp1 = (socket: Duplex) => {
    http1.set(socket, 0)
    socket.once('close', () => http1.delete(socket))
  }
  if ('updateSettings' in server) {
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.alpnProtocol !== 'h2') addHttp1(socket)
    })
    server.on('session', (session: ServerHttp2Session) => {
      sessions.add(session)
      session.once('close', forget(sessions, session))
    })
  } else server.on('connection', addHttp1)

  server.on('upgrade', (req: IncomingMessage) => {
    upgraded.add(req.socket)
    http1.delete(req.socket)
    req.socket.once('close', forget(upgraded, req.socket))
  })
  // One listener shared by every answer (its `this`), rather than a closure and a `once`
  // wrapper per request: a response emits `'close'` once.
  function answered(this: ServerResponse | Http2ServerResponse): void {
    inFlight--
    const { req } = this
    if (req.httpVersionMajor === 2) return
    const socket = req.socket as Duplex
    const active = http1.get(socket)
    if (active === undefined) return
    const left = active - 1
    http1.set(socket, left)
    // While stopping, a keep-alive connection ends as soon as its last answer went out.
    if (closing && left === 0) socket.end()
  }
  server.on(
    'request',
    (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
      inFlight++
      if (req.httpVersionMajor !== 2) {
        const socket = req.socket as Duplex
        const active = http1.get(socket)
        if (active !== undefined) http1.set(socket, active + 1)
      }
      res.on('close', answered)
    },
  )

  return {
    get inFlight() {
      return inFlight
    },
    close(graceMs) {
      closing = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of upgraded) socket.destroy()
      for (const [socket, active] of http1) if (active === 0) socket.end()
      for (const session of sessions) session.close()
      const timer = setTimeout(() => {
        for (const session of sessions) session.destroy()
        for (const socket of raw) socket.destroy()
      }, graceMs)
      return closed.finally(() => clearTimeout(timer))
    },
  }
}
