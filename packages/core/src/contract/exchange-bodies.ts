import { hasBody } from '../http/has-body.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { keepReadPrefix } from '../http/read-prefix.js'

/*
 * The request body of a checked exchange, without changing what the target gets: a copy taken
 * as the forwarder reads the stream (`copyBody`), or, under `enforce: 'request'`, the body read
 * before the target is asked (`readBody`): whole, it is handed to the forwarder as `req.body`,
 * which it sends as it is; past the bound, reading stops and the forwarder sends what was read,
 * then the rest of the stream (http/read-prefix.ts), so no body is held whole or cut short.
 */

/** The request body as the check gets it: its bytes, or why there are none to check. */
export type BodyRead = { readonly bytes: Buffer } | { readonly skipped: string }

/** The copy, once the request is over. */
export type BodyCopy = () => Promise<BodyRead>

const EMPTY: BodyRead = Object.freeze({ bytes: Buffer.alloc(0) })
/** Why a body was not checked, when no log line needs to say so: the request's own fate. */
export const BODY_NOT_WHOLE = 'the request body did not arrive whole'
export const BODY_NOT_READ = 'the request body was not read (the answer came first)'

/** The reason for a body over the bound; said once in the log, as the answers' is. */
function overBound(limit: number): BodyRead {
  return { skipped: `the request body is over maxBodyBytes (${limit} bytes)` }
}

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

/** What is known before any byte is read: a parser's body, none at all, or one announced over the bound. */
function knownBefore(req: ProxyRequest, limit: number): BodyRead | undefined {
  const parsed = parsedBody(req)
  if (parsed !== undefined) return parsed.byteLength > limit ? overBound(limit) : { bytes: parsed }
  if (req.readableEnded || !hasBody(req)) return EMPTY
  if (Number(req.headers['content-length'] ?? Number.NaN) > limit) return overBound(limit)
  return undefined
}

/**
 * Copies `req`'s body (at most `limit` bytes) as the forwarder reads it. Listening to 'data'
 * would start the flow before the forwarder listens, so the copy waits for 'resume', which Node
 * emits just before the first chunk flows (as the inspector's and the recordings' copies do).
 *
 * @example
 * const body = copyBody(req, 1048576)
 * const read = await body() // once the response closed: { bytes } or { skipped }
 */
export function copyBody(req: ProxyRequest, limit: number): BodyCopy {
  const known = knownBefore(req, limit)
  if (known !== undefined) return async () => known
  const chunks: Buffer[] = []
  let size = 0
  const done = new Promise<BodyRead>((resolve) => {
    const settle = (whole: boolean): void => {
      if (size > limit) resolve(overBound(limit))
      else resolve(whole ? { bytes: Buffer.concat(chunks) } : { skipped: BODY_NOT_WHOLE })
    }
    const attach = (): void => {
      req.on('data', (chunk: Buffer) => {
        size += chunk.byteLength
        if (size <= limit) chunks.push(Buffer.from(chunk))
      })
      req.once('end', () => settle(true))
      req.once('close', () => settle(req.readableEnded))
    }
    if (req.readableFlowing === true) attach()
    else req.once('resume', attach)
  })
  // Nobody read the body (a stand-in answered): it never came, and is not read now.
  return () =>
    req.readableFlowing === true || req.readableEnded ? done : Promise.resolve({ skipped: BODY_NOT_READ })
}

/**
 * Reads the request body before the target is asked (`enforce: 'request'`). A body that comes
 * whole within `limit` is left as `req.body` for the forwarder to send intact; one that goes
 * past `limit` is read no further: the stream is paused and the bytes read are kept for the
 * forwarder to send first (`keepReadPrefix`), and so is a body the client stopped sending, whose
 * stream then fails the upstream request as it would have unchecked.
 *
 * @example
 * const read = await readBody(req, 1048576) // { bytes } or { skipped }
 */
export async function readBody(req: ProxyRequest, limit: number): Promise<BodyRead> {
  const known = knownBefore(req, limit)
  if (known !== undefined) return known
  const chunks: Buffer[] = []
  let size = 0
  const outcome = await new Promise<'whole' | 'over' | 'cut'>((resolve) => {
    const stop = (how: 'whole' | 'over' | 'cut'): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      resolve(how)
    }
    const onData = (chunk: Buffer): void => {
      chunks.push(Buffer.from(chunk))
      size += chunk.byteLength
      if (size <= limit) return
      req.pause()
      stop('over')
    }
    const onEnd = (): void => stop('whole')
    const onClose = (): void => stop(req.readableEnded ? 'whole' : 'cut')
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('close', onClose)
    // Left on: an error after the check must not go unheard before the forwarder listens.
    req.on('error', () => stop('cut'))
  })
  const body = Buffer.concat(chunks)
  if (outcome === 'whole') {
    ;(req as { body?: unknown }).body = body
    return { bytes: body }
  }
  keepReadPrefix(req, body)
  return outcome === 'over' ? overBound(limit) : { skipped: BODY_NOT_WHOLE }
}
