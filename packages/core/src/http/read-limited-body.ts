import type { ProxyRequest } from './proxy-types.js'

/**
 * A request's body read whole, keeping at most `limit` bytes: the bytes, `'too-large'` when it
 * was longer (read to its end all the same, so the connection stays usable), or `undefined` when
 * the request failed. Never rejects.
 *
 * @example
 * const body = await readLimitedBody(req, 16 * 1024)
 * if (body === 'too-large') return sendText(res, 413, 'too large')
 */
export function readLimitedBody(req: ProxyRequest, limit: number): Promise<Buffer | 'too-large' | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= limit) chunks.push(chunk)
    })
    req.once('error', () => resolve(undefined))
    req.once('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)))
  })
}
