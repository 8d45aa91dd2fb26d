import type { ProxyRequest } from '../http/proxy-types.js'

/**
 * Reads a small JSON body of at most `limit` bytes (what the inspector's `POST`s send);
 * `undefined` when it is longer, not JSON, or the request fails. Never rejects.
 *
 * @example
 * const change = await readJsonBody(req, 16 * 1024)
 */
export function readJsonBody(req: ProxyRequest, limit: number): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= limit) chunks.push(chunk)
    })
    req.on('error', () => resolve(undefined))
    req.on('end', () => {
      if (size > limit) return resolve(undefined)
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      } catch {
        resolve(undefined)
      }
    })
  })
}
