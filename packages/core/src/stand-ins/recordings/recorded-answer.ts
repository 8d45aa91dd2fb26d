import { HOP_BY_HOP_HEADERS } from '../../http/hop-by-hop.js'
import { isJsonMimeType, mimeEssence } from '../../http/mime.js'
import { MASK, maskBody, maskHeaderValue } from '../../inspector/mask-secrets.js'
import type { RecordedAnswer, RecordedBody, RecordedChunk } from './recording-format.js'

/*
 * An exchange as it goes into a file: the head without what belongs to one connection (framing,
 * hop-by-hop fields, the date), every secret masked by the inspector's rules and the names the
 * user added, the body as text, as JSON data or as base64.
 */

/** What the masking applies: the inspector's rules, or none, and extra names. */
export interface MaskRules {
  readonly mask: boolean
  /** Lower-case header and body field names masked besides the inspector's rules. */
  readonly maskNames: readonly string[]
}

/** The header a replayed answer carries (the file it came from); never recorded itself. */
export const REPLAYED_HEADER = 'x-cors-dev-proxy-replayed'

/** Fields that describe one connection or one moment, recomputed on replay. */
const NOT_RECORDED: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP_HEADERS,
  'content-length',
  'date',
  REPLAYED_HEADER,
])

/**
 * Header pairs as recorded: lower-case names, connection fields dropped, values masked.
 *
 * @example
 * recordedHeaders([['Set-Cookie', 'sid=1; Path=/']], { mask: true, maskNames: [] }) // [['set-cookie', 'sid=[masked]; Path=/']]
 */
export function recordedHeaders(
  pairs: Iterable<readonly [string, string]>,
  rules: MaskRules,
): [string, string][] {
  const out: [string, string][] = []
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase()
    if (NOT_RECORDED.has(lower)) continue
    if (!rules.mask) out.push([lower, value])
    else out.push([lower, rules.maskNames.includes(lower) ? MASK : maskHeaderValue(lower, value)])
  }
  return out
}

/** `text` with the values of the extra field names masked (JSON or form), after the inspector's rules. */
function maskExtraFields(text: string, contentType: string | undefined, names: readonly string[]): string {
  if (names.length === 0) return text
  if ((contentType ?? '').toLowerCase().includes('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(text)
    for (const name of [...params.keys()]) if (names.includes(name.toLowerCase())) params.set(name, MASK)
    return params.toString()
  }
  try {
    return JSON.stringify(JSON.parse(text), (name, value: unknown) =>
      names.includes(name.toLowerCase()) && (value === null || typeof value !== 'object') ? MASK : value,
    )
  } catch {
    return text
  }
}

/**
 * A body's text as recorded: masked by the inspector's rules and the extra names, unless masking is off.
 *
 * @example
 * maskedText('{"password":"x"}', 'application/json', { mask: true, maskNames: [] }) // '{"password":"[masked]"}'
 */
export function maskedText(text: string, contentType: string | undefined, rules: MaskRules): string {
  if (!rules.mask) return text
  return maskExtraFields(maskBody(text, contentType), contentType, rules.maskNames)
}

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
