import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LiveAnswer } from '@cors-dev-proxy/core/adapter'

/** How long one request may take by default (`--timeout`), between two reads of its socket. */
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

/** No answer to a request, and why (`ECONNREFUSED`, `no answer within 30000 ms`). */
export interface NoAnswer {
  readonly failure: string
}

/**
 * Sends one safe request (`GET` or `HEAD`, nothing else is ever passed here) to `url` with
 * `headers` (`timeout` ms at most without a byte), and resolves with its answer, the body's bytes as they came (no decoding, no
 * redirect followed: a redirect is an answer to compare like any other), or with why there was
 * none (refused, timed out, too large); never rejects.
 *
 * @example
 * const live = await sendSafeRequest('GET', new URL('http://127.0.0.1:3000/users'), { accept: 'application/json' })
 * if ('failure' in live) console.log(live.failure)
 */
export function sendSafeRequest(
  method: 'GET' | 'HEAD',
  url: URL,
  headers: Readonly<Record<string, string>>,
  timeout = LIVE_REQUEST_TIMEOUT,
): Promise<LiveAnswer | NoAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    let failure: string | undefined
    let answered = false
    const fail = (reason: string) => {
      failure ??= reason
      request.destroy()
    }
    const request = send(url, { method, headers, timeout }, (response) => {
      answered = true
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength
        if (size > MAX_BODY_BYTES) fail(`the body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB`)
        else chunks.push(chunk)
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: headerPairs(response),
          body: Buffer.concat(chunks),
        }),
      )
      // Cut off (by `fail`, or by the backend): 'close' without the whole body.
      response.on('close', () => {
        if (!response.complete) resolve({ failure: failure ?? 'the answer was cut off' })
      })
      response.on('error', () => undefined)
    })
    request.on('timeout', () => fail(`no answer within ${timeout} ms`))
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ failure: failure ?? error.code ?? error.message }),
    )
    // Destroyed before any answer (the timeout) without an error event: settled here.
    request.on('close', () => {
      if (!answered) resolve({ failure: failure ?? 'the connection closed without an answer' })
    })
    request.end()
  })
}
