import type { Socket } from 'node:net'
import { buildConnector } from 'undici'
import { errorCode } from './proxy-error.js'

/**
 * Options of {@link createUpstreamConnector}.
 *
 * @example
 * createUpstreamConnector({ secure: true, onIdleClose: (ms) => console.log(`closed after ${ms} ms idle`) })
 */
export interface UpstreamConnectorOptions {
  /**
   * Verify the target's TLS certificate (the route's `secure`).
   * @default true
   */
  secure?: boolean
  /**
   * Told, in milliseconds, how long a kept-alive connection had been idle when the target closed
   * it: what the target's idle timeout is, since many servers send no `Keep-Alive: timeout=` hint.
   * @default ignore
   */
  onIdleClose?: ((idleMs: number) => void) | undefined
  /**
   * Offer HTTP/2 by ALPN on TLS connections (the route's `http2`); the pool must allow it too.
   * @default false
   */
  allowH2?: boolean
  /** Told the protocol each new TLS connection negotiated (`h2` or `http/1.1`), for the debug log. */
  onProtocol?: ((protocol: string) => void) | undefined
  /**
   * Connect to this Unix domain socket instead of the origin's host and port (the route's
   * `target: { socketPath }`).
   * @default undefined
   */
  socketPath?: string | undefined
  /**
   * `tls.connect` options from the route's `https.Agent` (`ca`, `cert`, `key`...).
   * @default {}
   */
  tls?: Readonly<Record<string, unknown>> | undefined
}

/** Write errors that mean the target has gone: it may still have answered before it went. */
const PEER_GONE = new Set(['EPIPE', 'ECONNRESET'])

type WriteCallback = (error?: Error | null) => void

/**
 * Holds back a write error caused by the target closing the connection until the socket's read
 * side is done. A target that answers early (413 before reading a large upload) and closes
 * leaves its answer in our receive buffer and resets the connection; Node destroys a socket as
 * soon as a write fails, before that answer is read, and undici then reports the request as
 * failed ("connection closed by the server") although the whole answer had arrived. Reading on
 * first keeps the answer: undici completes the response, then the held error closes the socket.
 * RFC 9112 section 9.6 asks clients to keep reading for exactly this case.
 *
 * The override is the documented `Writable._write`/`_writev` extension point, per socket: the
 * callback is called exactly once, with the error, when the socket ends or closes.
 */
function holdWriteErrors(socket: Socket): void {
  const hold = (callback: WriteCallback): WriteCallback =>
    function afterUpstreamWrite(error) {
      if (
        error == null ||
        !PEER_GONE.has(errorCode(error) ?? '') ||
        socket.destroyed ||
        socket.readableEnded
      ) {
        callback(error)
        return
      }
      const release = (): void => {
        socket.off('end', release)
        socket.off('close', release)
        callback(error)
      }
      socket.once('end', release)
      socket.once('close', release)
    }
  const write = socket._write
  socket._write = function writeUpstream(chunk, encoding, callback) {
    write.call(this, chunk, encoding, hold(callback))
  }
  const writev = socket._writev
  if (writev !== undefined) {
    socket._writev = function writevUpstream(chunks, callback) {
      writev.call(this, chunks, hold(callback))
    }
  }
}

/**
 * Reports how long a kept-alive connection was idle when the target closed it. Idle means nothing
 * was written since the last bytes were read: a close with a request in flight (a crash, the
 * keep-alive race) says nothing about the target's idle timeout and is not reported.
 */
function watchIdleClose(socket: Socket, onIdleClose: (idleMs: number) => void): void {
  let lastReadAt = 0
  let writtenAtLastRead = 0
  // Noted where undici reads: its parser calls `socket.read()` on each 'readable'. A second
  // 'readable' listener would cost a call, and a copy of the listener list in every emit, on
  // every answer.
  const read = socket.read
  socket.read = function noteUpstreamRead(size?: number) {
    const chunk = read.call(this, size)
    if (chunk !== null) {
      lastReadAt = performance.now()
      writtenAtLastRead = socket.bytesWritten
    }
    return chunk
  }
  socket.once('end', function noteUpstreamEnd() {
    if (lastReadAt > 0 && socket.bytesWritten === writtenAtLastRead) {
      onIdleClose(performance.now() - lastReadAt)
    }
  })
}

/**
 * The connector of an upstream pool: undici's own (`buildConnector`, TLS verified unless
 * `secure` is false) with two additions per connection, both paid once per connection and a few
 * nanoseconds per read or write (wrappers, no listener): an early answer survives the target
 * closing on an unfinished upload (see `holdWriteErrors`), and idle closes are reported through
 * `onIdleClose` so the pool can learn the target's keep-alive timeout.
 *
 * @example
 * new Pool(origin, { connect: createUpstreamConnector({ secure: route.secure }) })
 */
export function createUpstreamConnector(options: UpstreamConnectorOptions = {}): buildConnector.connector {
  // `secure: false` accepts a self-signed target, as http-proxy's `secure` does.
  const connect = buildConnector({
    ...options.tls,
    ...(options.secure === false ? { rejectUnauthorized: false } : {}),
    ...(options.allowH2 === true ? { allowH2: true } : {}),
    ...(options.socketPath === undefined ? {} : { socketPath: options.socketPath }),
  })
  const { onIdleClose, onProtocol } = options
  return function connectUpstream(connectOptions, callback) {
    connect(connectOptions, (error, socket) => {
      if (socket != null) {
        const alpn = (socket as Socket & { alpnProtocol?: string | false }).alpnProtocol
        if (onProtocol !== undefined && typeof alpn === 'string') onProtocol(alpn)
        // An HTTP/2 session reads and writes the socket's handle itself: the stream-level
        // watchers below would see nothing, and its streams report their own errors.
        if (alpn !== 'h2') {
          holdWriteErrors(socket)
          if (onIdleClose !== undefined) watchIdleClose(socket, onIdleClose)
        }
      }
      ;(callback as (error: Error | null, socket: Socket | null) => void)(error, socket)
    })
  }
}
