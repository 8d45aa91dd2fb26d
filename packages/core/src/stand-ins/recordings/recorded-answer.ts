import { isJsonMimeType, mimeEssence } from '../../http/mime.js'
import { type MaskRules, maskedText, recordedHeaders } from '../file-masking.js'
import type { RecordedAnswer, RecordedBody, RecordedChunk } from './recording-format.js'

/*
 * An exchange as it goes into a file: the head without what belongs to one connection (framing,
 * hop-by-hop fields, the date), every secret masked by the inspector's rules and the names the
 * user added (see ../file-masking.ts), the body as text, as JSON data or as base64.
 */

/** JSON text without the whitespace between its tokens (strings kept as written). */
function withoutSpace(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|\s+/g, (token) => (token.startsWith('"') ? token : ''))
}

/**
 * Whether JSON data written back gives the backend's text, spacing aside: not when the text has
 * integer-like keys after others (an object lists those first, so their order would change),
 * numbers such as `1.0` or `1e3`, or escapes such as `\u00e9`. Such a body is kept as text.
 */
function writesBackAsSent(text: string, data: unknown): boolean {
  return JSON.stringify(data) === withoutSpace(text)
}

/**
 * A body as recorded: base64 when it is encoded (`Content-Encoding`) or not UTF-8, JSON data for
 * a JSON type that parses and writes back as it came (its keys in the backend's order), else
 * text; `undefined` when empty.
 */
function recordedBody(
  body: Buffer,
  contentType: string | undefined,
  encoded: boolean,
  rules: MaskRules,
): RecordedBody | undefined {
  if (body.byteLength === 0) return undefined
  const text = body.toString('utf8')
  if (encoded || !Buffer.from(text, 'utf8').equals(body)) {
    return { kind: 'base64', base64: body.toString('base64') }
  }
  const masked = maskedText(text, contentType, rules)
  if (isJsonMimeType(contentType)) {
    try {
      const json: unknown = JSON.parse(masked)
      if (writesBackAsSent(masked, json)) return { kind: 'json', json }
    } catch {
      // Not JSON after all: kept as the text it is.
    }
  }
  return { kind: 'text', text: masked }
}

/** What the record tap saw of one answer. */
export interface SeenAnswer {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  /** The body's pieces as they were written, with `performance.now()` at each. */
  readonly chunks: readonly (readonly [Buffer, number])[]
  /** `performance.now()` when the head went out. */
  readonly headAt: number
}

/**
 * The answer as its file holds it: an event stream as its pieces with their gaps, anything
 * else as one body.
 *
 * @example
 * recordedAnswer({ status: 200, headers: [['content-type', 'text/plain']], chunks: [[Buffer.from('hi'), 1]], headAt: 0 }, rules)
 */
export function recordedAnswer(seen: SeenAnswer, rules: MaskRules): RecordedAnswer {
  const headerOf = (name: string): string | undefined =>
    seen.headers.find(([field]) => field.toLowerCase() === name)?.[1]
  const contentType = headerOf('content-type')
  const encoded = (headerOf('content-encoding') ?? 'identity').toLowerCase() !== 'identity'
  const headers = recordedHeaders(seen.headers, rules)
  const recordedAt = new Date().toISOString()
  if (mimeEssence(contentType) === 'text/event-stream' && !encoded) {
    let last = seen.headAt
    const chunks: RecordedChunk[] = seen.chunks.map(([chunk, at]) => {
      const after = Math.max(0, Math.round(at - last))
      last = at
      return { after, text: maskedText(chunk.toString('utf8'), undefined, rules) }
    })
    return { status: seen.status, headers, body: undefined, chunks, recordedAt }
  }
  const body = recordedBody(Buffer.concat(seen.chunks.map(([chunk]) => chunk)), contentType, encoded, rules)
  return { status: seen.status, headers, body, chunks: undefined, recordedAt }
}
