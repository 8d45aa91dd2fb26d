import { randomBytes } from 'node:crypto'
import { MASK } from '../../http/mask-secrets.js'
import type { ProxyResponse } from '../../http/proxy-types.js'
import { REPLAYED_HEADER } from '../file-masking.js'
import type { RecordedAnswer, RecordedBody } from './recording-format.js'

/*
 * A recorded answer written to the client: its status and headers, `X-Cors-Dev-Proxy-Replayed`
 * naming the file (the page, the inspector and the log tell a replay by it), and its body; an
 * event stream piece by piece, with the recorded gaps capped at `maxGap`, stopped when the
 * client leaves.
 *
 * A recorded `Set-Cookie` holds no value (`session=[masked]; Path=/`): the replay hands out a
 * fresh stand-in instead (`session=replayed-<random>`), a valid cookie the browser keeps and
 * sends back, as it would a session the backend opened. The calls after it still find their
 * recordings: a cookie is a rotating credential, which no key compares.
 */

/**
 * A `Set-Cookie` value whose masked value is replaced by a fresh stand-in; others as they are.
 *
 * @example
 * standInCookie('session=[masked]; HttpOnly; Path=/') // 'session=replayed-3f9c…; HttpOnly; Path=/'
 */
export function standInCookie(value: string): string {
  const semicolon = value.indexOf(';')
  const first = semicolon < 0 ? value : value.slice(0, semicolon)
  const equals = first.indexOf('=')
  if (equals < 0 || first.slice(equals + 1).trim() !== MASK) return value
  const rest = semicolon < 0 ? '' : value.slice(semicolon)
  return `${first.slice(0, equals)}=replayed-${randomBytes(16).toString('hex')}${rest}`
}

function bodyBytes(body: RecordedBody | undefined): Buffer {
  if (body === undefined) return Buffer.alloc(0)
  if (body.kind === 'text') return Buffer.from(body.text)
  if (body.kind === 'base64') return Buffer.from(body.base64, 'base64')
  return Buffer.from(JSON.stringify(body.json))
}

/** Headers the answer gets, repeated fields (Set-Cookie) as arrays. */
function headerObject(answer: RecordedAnswer, source: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, recorded] of answer.headers) {
    const value = name === 'set-cookie' ? standInCookie(recorded) : recorded
    const previous = headers[name]
    if (previous === undefined) headers[name] = value
    else headers[name] = Array.isArray(previous) ? [...previous, value] : [previous, value]
  }
  headers[REPLAYED_HEADER] = source
  return headers
}

/**
 * Writes `answer` to `res`; `source` names its file in `X-Cors-Dev-Proxy-Replayed`. Never throws.
 *
 * @example
 * replayAnswer(res, recording.answers[0], 'cors-dev-proxy/recordings/api/GET-users.0123456789abcdef.json', 1000)
 */
export function replayAnswer(
  res: ProxyResponse,
  answer: RecordedAnswer,
  source: string,
  maxGap: number,
): void {
  const headers = headerObject(answer, source)
  try {
    if (answer.chunks === undefined) {
      const body = bodyBytes(answer.body)
      headers['content-length'] = String(body.byteLength)
      res.writeHead(answer.status, headers)
      res.end(body)
      return
    }
    res.writeHead(answer.status, headers)
    ;(res as { flushHeaders?: () => void }).flushHeaders?.()
    streamChunks(res, answer.chunks, maxGap)
  } catch {
    // A header the recording holds that Node refuses (the file was edited): nothing more to send.
    if (!res.headersSent) {
      res.statusCode = 500
      res.end('cors-dev-proxy: this recording cannot be replayed (invalid header)\n')
    } else res.end()
  }
}

function streamChunks(
  res: ProxyResponse,
  chunks: NonNullable<RecordedAnswer['chunks']>,
  maxGap: number,
): void {
  let index = 0
  let timer: NodeJS.Timeout | undefined
  const next = (): void => {
    timer = undefined
    const chunk = chunks[index++]
    if (chunk === undefined || res.destroyed) {
      res.end()
      return
    }
    ;(res as { write(chunk: string): boolean }).write(chunk.text)
    const following = chunks[index]
    if (following === undefined) res.end()
    else timer = setTimeout(next, Math.min(following.after, maxGap))
  }
  res.once('close', () => {
    if (timer !== undefined) clearTimeout(timer)
  })
  const first = chunks[0]
  if (first === undefined) res.end()
  else timer = setTimeout(next, Math.min(first.after, maxGap))
}
