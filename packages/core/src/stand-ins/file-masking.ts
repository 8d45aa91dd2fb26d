import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import { MASK, maskBody, maskHeaderValue } from '../http/mask-secrets.js'

/*
 * What a stand-in's file holds of an exchange's head and text: the recordings (record-tap) and
 * "Mock this answer" (route-mocks) both write files meant to be committed, so both drop what
 * belongs to one connection and mask every secret by the inspector's rules and the names the
 * user added.
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
