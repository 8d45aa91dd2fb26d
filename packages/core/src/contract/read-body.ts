import { decodeContent } from '../http/content-decoding.js'

/** A body ready for its schema, or why it is not checked, or why it breaks the document. */
export type ReadBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly message: string }

/**
 * Reads a JSON body for the check: a body over `maxBodyBytes` before or after undoing its
 * `content-encoding` (gzip, deflate, br, zstd where Node has it: http/content-decoding.ts) or
 * one in an encoding this Node cannot undo is skipped; the rest is parsed as JSON, which it must be.
 *
 * @example
 * readJsonForCheck(gzipSync('{"a":1}'), { 'content-encoding': 'gzip' }, 1024) // { kind: 'json', value: { a: 1 } }
 */
export function readJsonForCheck(
  body: Uint8Array,
  headers: Readonly<Record<string, string>>,
  maxBodyBytes: number,
): ReadBody {
  if (body.byteLength > maxBodyBytes) return overSize(maxBodyBytes)
  const encoding = headers['content-encoding']
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  // Most answers are not encoded: nothing to undo.
  const decoded = encoding === undefined ? bytes : decodeContent(bytes, encoding, maxBodyBytes)
  if (decoded === 'too-large') return overSize(maxBodyBytes)
  if (decoded === 'undecodable') {
    return { kind: 'skipped', reason: `the body's content-encoding '${encoding}' cannot be decoded here` }
  }
  try {
    return { kind: 'json', value: JSON.parse(decoded.toString('utf8')) }
  } catch (error) {
    return { kind: 'invalid', message: `is not valid JSON: ${(error as Error).message}` }
  }
}

function overSize(maxBodyBytes: number): ReadBody {
  return { kind: 'skipped', reason: `the body is over maxBodyBytes (${maxBodyBytes} bytes)` }
}
