import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

/**
 * How long, at most, a connection that must close stays open after its answer to read and drop
 * the rest of an upload the answer came before (nginx calls this lingering close, and waits up
 * to 30 s by default). Past it the connection closes anyway: a client that uploads for ever is
 * not waited for.
 */
export const LINGER_MS = 10_000

/** The request whose body a socket is still receiving, on sockets {@link lingerBeforeClose} prepared. */
const pending = Symbol('cors-dev-proxy.pendingRequest')

type LingeringSocket = Socket & { [pending]?: IncomingMessage | undefined }

/**
 * Keeps an HTTP/1.1 connection open, reading and dropping the rest of the client's upload, when
 * the answer went out before the upload ended and the connection has to close afterwards
 * (`Connection: close` from the client, a target that answered early, a 502 while uploading).
 *
 * Why: Node's server closes such a connection as soon as the answer is written
 * (`socket.destroySoon()`); the client, still writing its body, then gets EPIPE or ECONNRESET,
 * and often reports that instead of the answer sitting in its receive buffer (RFC 9112 §9.6
 * warns of exactly this: a server should not close the connection while the client may still
 * send). Here the close waits until the upload has been read to its end, or {@link LINGER_MS}.
 * A kept-alive connection needs nothing: Node drops an unread body there itself.
 *
 * Called once per request with a body; the socket's `destroySoon` is wrapped once, and only
 * delays anything while that socket's current request is unfinished.
 *
 * @example
 * if (req.httpVersionMajor === 1 && hasBody(req)) lingerBeforeClose(req)
 */
export function lingerBeforeClose(req: IncomingMessage): void {
  const socket = req.socket as LingeringSocket | null
  if (socket === null || typeof socket.destroySoon !== 'function') return
  const wrapped = pending in socket
  socket[pending] = req
  if (wrapped) return
  const destroySoon = socket.destroySoon
  socket.destroySoon = function lingeringDestroySoon(this: LingeringSocket): void {
    const upload = socket[pending]
    socket[pending] = undefined
    if (upload === undefined || upload.complete || upload.readableEnded || upload.destroyed) {
      destroySoon.call(this)
      return
    }
    let done = false
    const close = (): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      upload.off('end', close)
      upload.off('close', close)
      destroySoon.call(this)
    }
    const timer = setTimeout(close, LINGER_MS)
    timer.unref()
    upload.once('end', close)
    upload.once('close', close)
    // Nobody needs the rest: read it and drop it (a reader of ours may have paused it).
    upload.resume()
  }
}
