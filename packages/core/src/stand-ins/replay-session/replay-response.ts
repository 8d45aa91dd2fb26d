import { MASK } from '../../http/mask-secrets.js'
import { REPLAYED_HEADER } from '../file-masking.js'
import type { RecordedAnswer } from '../recordings/recording-format.js'
import type { ReplayMock } from './replay-data.js'

/*
 * Recorded and mocked answers as Web `Response`s, without Node, as recordings/replay-answer.ts
 * writes them on the proxy: the file named in `x-cors-dev-proxy-replayed`, a masked
 * `Set-Cookie` handed out as a fresh stand-in value, an event stream piece by piece with its
 * gaps capped at `maxGap`.
 */

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304])

function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/** A masked cookie value replaced by `replayed-<random>`, as the proxy does. */
function standInCookie(value: string): string {
  const semicolon = value.indexOf(';')
  const first = semicolon < 0 ? value : value.slice(0, semicolon)
  const equals = first.indexOf('=')
  if (equals < 0 || first.slice(equals + 1).trim() !== MASK) return value
  const random = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
  return `${first.slice(0, equals)}=replayed-${random}${semicolon < 0 ? '' : value.slice(semicolon)}`
}

function streamOf(chunks: NonNullable<RecordedAnswer['chunks']>, maxGap: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let index = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = chunks[index++]
      if (chunk === undefined) {
        controller.close()
        return
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(chunk.after, maxGap)))
      controller.enqueue(encoder.encode(chunk.text))
    },
  })
}

/**
 * A recorded answer as a `Response`; `file` names its recording.
 *
 * @example
 * const response = recordedResponse(recording.answers[0], 'GET-items.0123456789abcdef.json', 1000)
 */
export function recordedResponse(answer: RecordedAnswer, file: string, maxGap: number): Response {
  const headers = new Headers()
  for (const [name, value] of answer.headers) {
    // The framing is the runtime's: a recorded encoding stays (the bytes are as recorded), a length would not fit a stream.
    if (name === 'content-length' || name === 'transfer-encoding') continue
    headers.append(name, name === 'set-cookie' ? standInCookie(value) : value)
  }
  headers.set(REPLAYED_HEADER, file)
  const { body, chunks } = answer
  let content: BodyInit | null = null
  if (chunks !== undefined) content = streamOf(chunks, maxGap)
  else if (body?.kind === 'text') content = body.text
  else if (body?.kind === 'json') content = JSON.stringify(body.json)
  else if (body?.kind === 'base64') content = base64Bytes(body.base64) as BodyInit
  return new Response(NO_BODY.has(answer.status) ? null : content, { status: answer.status, headers })
}

/**
 * A mocked answer as a `Response`, marked with `x-cors-dev-proxy-mocked` as the proxy marks it.
 *
 * @example
 * const response = mockResponse(data.mocks[0])
 */
export function mockResponse(mock: ReplayMock): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(mock.headers)) {
    for (const one of typeof value === 'string' ? [value] : value) headers.append(name, one)
  }
  headers.set('x-cors-dev-proxy-mocked', mock.source)
  const content = 'text' in mock.body ? mock.body.text : (base64Bytes(mock.body.base64) as BodyInit)
  return new Response(NO_BODY.has(mock.status) ? null : content, { status: mock.status, headers })
}
