import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LiveAnswer } from '@cors-dev-proxy/core/adapter'

/** How long one request may take, head and body, before it counts as unanswered. */
export const LIVE_REQUEST_TIMEOUT = 30_000

/** At most this many bytes of a live body are read: a drift check compares structure, not downloads. */
const MAX_BODY_BYTES = 32 * 1024 * 1024

/** The URL `path` (relative to the route, with its query) goes to on `target`: the target's own path, then it. */
export function liveUrl(target: URL, path: string): URL {
  const base = target.pathname.replace(/\/+$/, '')
  const url = new URL(target.href)
  const question = path.indexOf('?')
  url.pathname = `${base}${question < 0 ? path : path.slice(0, question)}`
  url.search = question < 0 ? '' : path.slice(question)
  return url
}

function headerPairs(response: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = []
  const raw = response.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    pairs.push([(raw[index] as string).toLowerCase(), raw[index + 1] as string])
  }
  return pairs
}

/**
 * Sends one safe request (`GET` or `HEAD`, nothing else is ever passed here) to `url` with
 * `headers`, and resolves with its answer, the body's bytes as they came (no decoding, no
 * redirect followed: a redirect is an answer to compare like any other). Rejects with a message
 * saying why there was no answer (refused, timed out, too large).
 *
 * @example
 * const live = await sendSafeRequest('GET', new URL('http://127.0.0.1:3000/users'), { accept: 'application/json' })
 */
export function sendSafeRequest(
  method: 'GET' | 'HEAD',
  url: URL,
  headers: Readonly<Record<string, string>>,
): Promise<LiveAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<LiveAnswer>((resolve, reject) => {
    const request = send(url, { method, headers, timeout: LIVE_REQUEST_TIMEOUT }, (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength
        if (size > MAX_BODY_BYTES) request.destroy(new Error(`body over ${MAX_BODY_BYTES} bytes`))
        else chunks.push(chunk)
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: headerPairs(response),
          body: Buffer.concat(chunks),
        }),
      )
      response.on('error', reject)
    })
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${LIVE_REQUEST_TIMEOUT / 1000} s`)),
    )
    request.on('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)))
    request.end()
  })
}
