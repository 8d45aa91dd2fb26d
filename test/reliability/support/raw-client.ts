import { connect } from 'node:net'

/** What a raw client read before the connection ended, and how it ended. */
export interface RawExchange {
  /** The response head, up to its blank line (latin1). */
  readonly head: string
  /** The bytes after the head. */
  readonly body: Buffer
  /** `end`: closed cleanly (FIN); `reset`: an error such as ECONNRESET; `open`: still open at the deadline. */
  readonly ended: 'end' | 'reset' | 'open'
}

/**
 * Writes `request` as it is on a fresh connection to `url`'s host and port and reads until the
 * connection ends or `waitMs` pass: exactly the bytes the client would see, which `node:http`
 * would parse away (a body shorter than its `Content-Length`, a missing last chunk).
 *
 * @example
 * const { head, body, ended } = await rawExchange(proxy.url, 'GET /api/x HTTP/1.1\r\nHost: a\r\n\r\n')
 */
export function rawExchange(url: string, request: string, waitMs = 3_000): Promise<RawExchange> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    let settled = false
    const done = (ended: RawExchange['ended']) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const all = Buffer.concat(chunks)
      const split = all.indexOf('\r\n\r\n')
      resolve({
        head: split === -1 ? all.toString('latin1') : all.subarray(0, split).toString('latin1'),
        body: split === -1 ? Buffer.alloc(0) : all.subarray(split + 4),
        ended,
      })
    }
    const timer = setTimeout(() => done('open'), waitMs)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('end', () => done('end'))
    socket.once('error', () => done('reset'))
    socket.write(request)
  })
}
