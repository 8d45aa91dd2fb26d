import type { ProxyRequest } from './proxy-types.js'
import { readLimitedBody } from './read-limited-body.js'

/**
 * Reads a small JSON body of at most `limit` bytes (what the inspector's `POST`s send);
 * `undefined` when it is longer, not JSON, or the request fails. Never rejects.
 *
 * @example
 * const change = await readJsonBody(req, 16 * 1024)
 */
export async function readJsonBody(req: ProxyRequest, limit: number): Promise<unknown> {
  const body = await readLimitedBody(req, limit)
  if (body === undefined || body === 'too-large') return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}
