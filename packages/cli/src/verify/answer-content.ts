import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { LiveAnswer, RecordedAnswer } from '@cors-dev-proxy/core/adapter'

/*
 * What the drift check compares of an answer, whether it comes from a recording or from the
 * live backend: the status, the media type, and the body as JSON data when it is JSON. A
 * recorded body may be JSON data, text, or base64 bytes (encoded with gzip, say); a live one is
 * bytes, decoded here the way a browser would.
 */

/** An answer reduced to what is compared. */
export interface AnswerContent {
  readonly status: number
  /** The media type without parameters, lower-case (`application/json`); `undefined` without one. */
  readonly type: string | undefined
  /** The body as JSON data (`{ value }`), or `undefined` when it is not JSON or there is none. */
  readonly json: { readonly value: unknown } | undefined
  /** The body as text, for `--values` on a body that is not JSON; `undefined` without one. */
  readonly text: string | undefined
}

function headerOf(headers: readonly (readonly [string, string])[], name: string): string | undefined {
  return headers.find(([field]) => field.toLowerCase() === name)?.[1]
}

function essence(type: string | undefined): string | undefined {
  const value = type?.split(';')[0]?.trim().toLowerCase()
  return value === '' ? undefined : value
}

/** `application/json`, `application/problem+json`, `text/json`. */
function isJsonType(type: string | undefined): boolean {
  return type !== undefined && (type.endsWith('/json') || type.endsWith('+json'))
}

/** Bytes as the body they encode (`content-encoding`); `undefined` for an encoding not known here or broken bytes. */
function decoded(bytes: Buffer, encoding: string | undefined): Buffer | undefined {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  try {
    if (name === 'identity' || name === '') return bytes
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(bytes)
    if (name === 'br') return brotliDecompressSync(bytes)
    if (name === 'deflate') return inflateSync(bytes)
  } catch {
    // Broken bytes: compared as a body that is not JSON.
  }
  return undefined
}

function parsedJson(text: string | undefined, type: string | undefined): AnswerContent['json'] {
  if (text === undefined || !isJsonType(type)) return undefined
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

function contentOf(
  status: number,
  headers: readonly (readonly [string, string])[],
  bytes: Buffer | undefined,
): AnswerContent {
  const type = essence(headerOf(headers, 'content-type'))
  const body = bytes === undefined ? undefined : decoded(bytes, headerOf(headers, 'content-encoding'))
  const text = body === undefined || body.byteLength === 0 ? undefined : body.toString('utf8')
  return { status, type, json: parsedJson(text, type), text }
}

/**
 * A recorded answer as compared: its JSON data as the file holds it, or its text or bytes read
 * as a live body would be; an event stream's pieces joined as its text.
 *
 * @example
 * recordedContent(recording.answers.at(-1)).json?.value
 */
export function recordedContent(answer: RecordedAnswer): AnswerContent {
  const { status, headers, body, chunks } = answer
  if (body?.kind === 'json') {
    const text = JSON.stringify(body.json)
    return { status, type: essence(headerOf(headers, 'content-type')), json: { value: body.json }, text }
  }
  if (body?.kind === 'base64') return contentOf(status, headers, Buffer.from(body.base64, 'base64'))
  const text = body?.kind === 'text' ? body.text : chunks?.map((chunk) => chunk.text).join('')
  // Text in the file is decoded already: its `content-encoding` (if any) no longer applies.
  const plain = headers.filter(([name]) => name !== 'content-encoding')
  return contentOf(status, plain, text === undefined ? undefined : Buffer.from(text))
}

/**
 * A live answer as compared: its bytes decoded by its `content-encoding`.
 *
 * @example
 * liveContent({ status: 200, headers: [['content-type', 'application/json']], body: Buffer.from('{}') })
 */
export function liveContent(answer: LiveAnswer): AnswerContent {
  return contentOf(answer.status, answer.headers, answer.body)
}
