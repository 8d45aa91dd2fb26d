import { request } from 'node:http'
import { connect } from 'node:http2'

/** How an upload ended, as the client saw it. */
export interface UploadOutcome {
  /** The answer's status, or 0 when none arrived. */
  readonly status: number
  /** The answer's body as text (what arrived of it). */
  readonly body: string
  /** The error the client saw, if any: `ECONNRESET`, `socket hang up`, a stream reset... */
  readonly error: string | undefined
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61)

/**
 * Uploads `size` bytes (64 KiB writes, back-pressured) with `node:http` on a connection of its
 * own and resolves with the answer as soon as it is complete, whether or not the upload
 * finished: a client reads an early answer while it is still sending. Never rejects.
 *
 * @example
 * const { status, body } = await uploadHttp1(`${proxy.url}/api/upload`, 20 * 1024 * 1024)
 */
export function uploadHttp1(url: string, size: number): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    let body = ''
    let status = 0
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/octet-stream', 'content-length': size },
    })
    const done = (error?: Error) =>
      resolve({ status, body, error: error && ((error as { code?: string }).code ?? error.message) })
    req.once('error', done)
    req.once('response', (res) => {
      status = res.statusCode ?? 0
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.once('error', done)
      res.once('end', () => done())
    })
    let sent = 0
    const pump = (): void => {
      while (sent < size && !req.destroyed) {
        sent += CHUNK.byteLength
        if (!req.write(CHUNK)) {
          req.once('drain', pump)
          return
        }
      }
      if (!req.destroyed) req.end()
    }
    pump()
  })
}

/**
 * The same upload over HTTP/2 (cleartext for an `http:` URL, TLS for `https:`, a session of its
 * own): the answer may complete while the request stream is still open.
 */
export function uploadHttp2(url: string, size: number): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const target = new URL(url)
    // An https origin is a dev server's self-signed one.
    const session = connect(target.origin, { rejectUnauthorized: false })
    let body = ''
    let status = 0
    let settled = false
    const done = (error?: Error) => {
      if (settled) return
      settled = true
      session.close()
      resolve({ status, body, error: error && ((error as { code?: string }).code ?? error.message) })
    }
    session.once('error', done)
    const stream = session.request({
      ':method': 'POST',
      ':path': `${target.pathname}${target.search}`,
      'content-type': 'application/octet-stream',
      'content-length': String(size),
    })
    stream.once('response', (headers) => {
      status = Number(headers[':status'])
    })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => (body += chunk))
    stream.once('end', () => done())
    stream.once('error', done)
    let sent = 0
    const pump = (): void => {
      while (sent < size && !stream.destroyed && stream.writable) {
        sent += CHUNK.byteLength
        if (!stream.write(CHUNK)) {
          stream.once('drain', pump)
          return
        }
      }
      if (stream.writable) stream.end()
    }
    pump()
  })
}
