import * as zlib from 'node:zlib'

/** Why a body could not be decoded: an encoding this Node cannot undo, or output past the limit. */
export type UndecodedBody = 'undecodable' | 'too-large'

type Decompress = (body: Buffer, options: { maxOutputLength: number }) => Buffer

/**
 * Zstandard (`Content-Encoding: zstd`, RFC 8878), which Chromium sends in `Accept-Encoding` since
 * version 123: Node has `zlib.zstdDecompressSync` from 22.15 and 23.8. Read from the namespace
 * so the module loads on Node 20, where the name does not exist and zstd stays undecodable.
 */
const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: Decompress }).zstdDecompressSync

/** Whether this Node can decode `Content-Encoding: zstd`. */
export const CAN_DECODE_ZSTD = typeof zstdDecompressSync === 'function'

/**
 * Undoes a `Content-Encoding` (RFC 9110 section 8.4.1): identity, gzip (and `x-gzip`), deflate,
 * br, and zstd where Node has it; anything else, a stacked list (`gzip, br`) included, is
 * `'undecodable'` for the caller to answer 502. At most `limit` bytes of output: zlib stops
 * there (`maxOutputLength`), so a compression bomb never reaches memory whole.
 *
 * @example
 * decodeContent(gzipSync('{}'), 'gzip', 1024) // <Buffer 7b 7d>
 */
export function decodeContent(body: Buffer, encoding: string, limit: number): Buffer | UndecodedBody {
  const options = { maxOutputLength: limit }
  try {
    switch (encoding.trim().toLowerCase()) {
      case '':
      case 'identity':
        return body
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(body, options)
      case 'deflate':
        return zlib.inflateSync(body, options)
      case 'br':
        return zlib.brotliDecompressSync(body, options)
      case 'zstd':
        return zstdDecompressSync === undefined ? 'undecodable' : zstdDecompressSync(body, options)
      default:
        return 'undecodable'
    }
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError
      ? 'too-large'
      : 'undecodable'
  }
}
