import type { ProxyRequest } from '../http/proxy-types.js'

/*
 * The request body of a checked exchange, without changing what the target gets: a copy taken
 * as the forwarder reads the stream (`copyBody`), or, under `enforce: 'request'`, the whole body
 * read before the target is asked and handed to the forwarder as `req.body` (`readBody`), which
 * it sends as it is (forward/request-body.ts).
 */

/** The copy: the body, or `undefined` when it was over the bound or never came whole. */
export type BodyCopy = () => Promise<Buffer | undefined>

const EMPTY = Buffer.alloc(0)

/** A body a parser already read (`req.body`), as bytes; `undefined` when there is none. */
function parsedBody(req: ProxyRequest): Buffer | undefined {
  const parsed = (req as { body?: unknown }).body
  if (Buffer.isBuffer(parsed) || typeof parsed === 'string') return Buffer.from(parsed)
  if (parsed instanceof Uint8Array) return Buffer.from(parsed)
  if (parsed !== undefined && parsed !== null && typeof parsed === 'object') {
    return Buffer.from(JSON.stringify(parsed))
  }
  return undefined
}

/**
 * Copies `req`'s body (at most `limit` bytes) as the forwarder reads it. Listening to 'data'
 * would start the flow before the forwarder listens, so the copy waits for 'resume', which Node
 * emits just before the first chunk flows (as the inspector's and the recordings' copies do).
 *
 * @example
 * const body = copyBody(req, 1048576)
 * const bytes = await body() // once the response closed
 */
export function copyBody(req: ProxyRequest, limit: number): BodyCopy {
  const parsed = parsedBody(req)
  if (parsed !== undefined) return async () => (parsed.byteLength > limit ? undefined : parsed)
  if (req.readableEnded || req.headers['content-length'] === '0') return async () => EMPTY
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
  // Nobody read the body (a stand-in answered): it never came, and is not read now.
  return () => (req.readableFlowing === true || req.readableEnded ? done : Promise.resolve(undefined))
}

/**
 * Reads the whole request body before the target is asked (`enforce: 'request'`) and leaves it
 * as `req.body` for the forwarder to send intact: the bytes, or `undefined` for a body over
 * `limit` (announced by its length: then not read, and streamed on as usual) or one that did
 * not arrive whole.
 *
 * @example
 * const body = await readBody(req, 1048576)
 */
export async function readBody(req: ProxyRequest, limit: number): Promise<Buffer | undefined> {
  const parsed = parsedBody(req)
  if (parsed !== undefined) return parsed
  if (req.readableEnded) return EMPTY
  const length = Number(req.headers['content-length'] ?? Number.NaN)
  if (
    length === 0 ||
    (req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined &&
      req.httpVersionMajor < 2)
  )
    return EMPTY
  if (length > limit) return undefined
  const chunks: Buffer[] = []
  const whole = await new Promise<boolean>((resolve) => {
    req.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)))
    req.once('end', () => resolve(true))
    req.once('error', () => resolve(false))
    req.once('close', () => resolve(req.readableEnded))
  })
  const body = Buffer.concat(chunks)
  // The forwarder sends what was read (all of it, even past `limit`): never a body cut short.
  ;(req as { body?: unknown }).body = body
  return whole && body.byteLength <= limit ? body : undefined
}
