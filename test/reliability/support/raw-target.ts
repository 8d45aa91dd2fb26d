import { createServer, type Server, type Socket } from 'node:net'
import { listen, type StartedServer } from '../../support/servers.js'

/** A started raw TCP target and the connections it accepted so far. */
export interface RawTarget extends StartedServer<Server> {
  /** Every connection accepted, in order (closed ones included). */
  readonly sockets: readonly Socket[]
}

/**
 * A target on plain TCP (127.0.0.1, port 0): `onConnection` writes exactly the bytes the proxy
 * is to read, which an HTTP server would normalise (a `Content-Length` on a 304, an unsolicited
 * `100 Continue`, a body cut short). Socket errors are swallowed: the proxy resetting a
 * connection is part of what these tests provoke.
 *
 * @example
 * const target = await rawTarget((socket) => socket.once('data', () => socket.end('HTTP/1.1 204 No Content\r\n\r\n')))
 */
export async function rawTarget(onConnection: (socket: Socket) => void): Promise<RawTarget> {
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => undefined)
    onConnection(socket)
  })
  const started = await listen(server)
  return { ...started, sockets }
}

/**
 * Calls `onRequest` with each request head (up to its blank line) received on `socket`; a body
 * is not expected (these targets serve GET and HEAD). The heads are read as latin1 text; nothing
 * more once the socket is destroyed.
 */
export function onRequestHeads(socket: Socket, onRequest: (head: string) => void): void {
  let buffered = ''
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1')
    for (
      let end = buffered.indexOf('\r\n\r\n');
      end !== -1 && !socket.destroyed;
      end = buffered.indexOf('\r\n\r\n')
    ) {
      const head = buffered.slice(0, end)
      buffered = buffered.slice(end + 4)
      onRequest(head)
    }
  })
}

/**
 * A keep-alive target that answers every request with `answer(head)` and leaves the connection
 * open for the next one.
 *
 * @example
 * const target = await answeringTarget(() => 'HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\n\r\n')
 */
export function answeringTarget(answer: (head: string) => string | Buffer): Promise<RawTarget> {
  return rawTarget((socket) => onRequestHeads(socket, (head) => socket.write(answer(head))))
}
