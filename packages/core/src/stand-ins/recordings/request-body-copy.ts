import type { ProxyRequest } from '../../http/proxy-types.js'
import type { Exchange } from '../../pipeline/exchange.js'

/*
 * A copy of the request body as the forwarder reads it, for the record (its file's key) and for
 * `replay: 'fallback'` (matching once the target failed, after the body went). Listening to
 * 'data' would start the flow before the forwarder listens, so the copy waits for 'resume',
 * which Node emits just before the first chunk flows (the inspector's recorder does the same).
 * The copy is kept in the request's exchange, where the record tap and the fallback find it.
 */

/** The copy: the body, or `undefined` when it was longer than the bound. */
export type BodyCopy = () => Promise<Buffer | undefined>

const EMPTY = Buffer.alloc(0)

/**
 * Starts copying `req`'s body (at most `limit` bytes) and keeps the copy in its `exchange`, or
 * returns the one already kept there; a body a parser already read (`req.body`) is taken as it is.
 *
 * @example
 * const body = copyRequestBody(req, 1048576, exchange)
 * const bytes = await body() // once the forwarder read it
 */
export function copyRequestBody(req: ProxyRequest, limit: number, exchange: Exchange | undefined): BodyCopy {
  const existing = exchange?.bodyCopy
  if (existing !== undefined) return existing
  const parsed = (req as { body?: unknown }).body
  let copy: BodyCopy
  if (Buffer.isBuffer(parsed) || typeof parsed === 'string') {
    const body = Buffer.from(parsed)
    copy = async () => (body.byteLength > limit ? undefined : body)
  } else if (parsed !== undefined && parsed !== null && typeof parsed === 'object') {
    const body = Buffer.from(JSON.stringify(parsed))
    copy = async () => (body.byteLength > limit ? undefined : body)
  } else if (req.readableEnded || req.headers['content-length'] === '0') {
    copy = async () => EMPTY
  } else {
    copy = streamCopy(req, limit)
  }
  if (exchange !== undefined) exchange.bodyCopy = copy
  return copy
}

function streamCopy(req: ProxyRequest, limit: number): BodyCopy {
  const chunks: Buffer[] = []
  let size = 0
  const done = new Promise<Buffer | undefined>((resolve) => {
    const attach = (): void => {
      req.on('data', (chunk: Buffer) => {
        size += chunk.byteLength
        if (size <= limit) chunks.push(Buffer.from(chunk))
      })
      req.once('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)))
      req.once('close', () => resolve(req.readableEnded && size <= limit ? Buffer.concat(chunks) : undefined))
    }
    if (req.readableFlowing === true) attach()
    else req.once('resume', attach)
  })
  return () => {
    // Asked before anyone read the body (the target failed first): read it now, nobody else will.
    if (req.readableFlowing !== true && !req.readableEnded) req.resume()
    return done
  }
}
