import type { HeaderEntry } from '../http/header-list.js'
import { HTTP_TOKEN } from '../http/http-token.js'
import { CorsDevProxyError } from './errors.js'
import { describeType, isPlainObject, optionEntry, quote } from './option-path.js'

/** RFC 9110 section 5.5: field values are visible ASCII, space, tab and obs-text; never CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/**
 * Headers that describe one connection or the framing of one message (RFC 9110 sections 7.6.1
 * and 8.6, RFC 9112 section 6.1): they cannot be fixed for the upstream, and undici refuses
 * most of them at request time, which would turn a config mistake into a failure per request.
 */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'expect',
])
const EXAMPLE = "{ headers: { 'x-api-key': 'dev' } }"

function invalid(option: string, problem: string, example = EXAMPLE): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_OPTION', option, problem, example)
}

/**
 * Validates the fixed upstream headers of `headers` at construction and returns them with
 * lowercased names (a later spelling of the same name wins), so the engine never meets a
 * header undici would refuse at request time. `host` is allowed (the engine decides how it
 * combines with `changeOrigin`).
 *
 * @example
 * checkHeaders({ 'X-Api-Key': 'dev' }, "routes['/api'].headers") // [['x-api-key', 'dev']]
 */
export function checkHeaders(value: unknown, option: string): HeaderEntry[] | undefined {
  if (value === undefined) return undefined
  if (!isPlainObject(value)) {
    throw invalid(option, `must be an object of header name → value, got ${describeType(value)}`)
  }
  const entries = new Map<string, string>()
  for (const [name, headerValue] of Object.entries(value)) {
    const at = optionEntry(option, name)
    if (!HTTP_TOKEN.test(name)) {
      throw invalid(at, 'is not a valid header name (RFC 9110 token characters only)')
    }
    const lower = name.toLowerCase()
    if (CONNECTION_HEADERS.has(lower)) {
      throw invalid(at, 'is a per-connection header that cannot be fixed for the upstream; remove it')
    }
    if (typeof headerValue !== 'string') {
      throw invalid(
        at,
        `must be a string, got ${describeType(headerValue)}`,
        // A number or boolean is what the user meant as text; anything else gets a placeholder.
        `{ headers: { ${quote(name)}: ${quote(typeof headerValue === 'number' || typeof headerValue === 'boolean' ? String(headerValue) : 'dev')} } }`,
      )
    }
    if (!FIELD_VALUE.test(headerValue)) {
      throw invalid(
        at,
        'contains a character not allowed in a header value (CR, LF, NUL or another control character)',
        `{ headers: { ${quote(name)}: 'dev' } }`,
      )
    }
    entries.set(lower, headerValue)
  }
  return [...entries]
}

/**
 * Merges header lists, `override` winning per (lowercased) name; the result is frozen.
 *
 * @example
 * mergeHeaders([['a', '1']], [['a', '2'], ['b', '3']]) // [['a', '2'], ['b', '3']]
 */
export function mergeHeaders(
  base: readonly HeaderEntry[],
  override: readonly HeaderEntry[] | undefined,
): readonly HeaderEntry[] {
  const merged = new Map<string, string>(base)
  for (const [name, value] of override ?? []) merged.set(name, value)
  return Object.freeze([...merged].map((entry) => Object.freeze(entry)))
}
