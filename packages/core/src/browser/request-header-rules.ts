import { mimeEssence } from '../http/mime.js'

/** Forbidden request-header names (Fetch standard §2.2.2): the browser sets these itself and drops a script's values. */
const FORBIDDEN_NAMES = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
  // Removed from the standard in 2015, but Chromium still drops a script's User-Agent
  // (crbug.com/571722): checked in Chromium 156, it never causes a preflight.
  'user-agent',
])

/** Headers that smuggle a method past a proxy; forbidden when they name a forbidden method. */
const METHOD_OVERRIDE_NAMES = new Set(['x-http-method', 'x-http-method-override', 'x-method-override'])

/** Forbidden methods (Fetch standard §2.2.1), compared case-insensitively. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** Whether `fetch` refuses the method outright (it throws a TypeError; nothing is sent). */
export function isForbiddenMethod(method: string): boolean {
  return FORBIDDEN_METHODS.has(method.toUpperCase())
}

/**
 * Whether the browser drops this request header set by a script (Fetch standard §2.2.2,
 * "forbidden request-header"), so it never counts towards a preflight.
 */
export function isForbiddenRequestHeader(name: string, value: string): boolean {
  const lower = name.toLowerCase()
  if (FORBIDDEN_NAMES.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) return true
  if (!METHOD_OVERRIDE_NAMES.has(lower)) return false
  return value.split(',').some((method) => isForbiddenMethod(method.trim()))
}

/** The printable CORS-unsafe request-header bytes: `"():<>?@[\]{}`. */
const UNSAFE_PRINTABLE = new Set('"():<>?@[\\]{}')

/**
 * Whether a value has a CORS-unsafe request-header byte (Fetch standard §2.2.2): a control
 * byte other than tab, one of `"():<>?@[\]{}`, or DEL.
 */
function hasUnsafeByte(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0)
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || UNSAFE_PRINTABLE.has(char)) return true
  }
  return false
}

/** Bytes allowed in `Accept-Language` and `Content-Language` values: `0-9A-Za-z *,-.;=`. */
const LANGUAGE_VALUE = /^[0-9A-Za-z *,\-.;=]*$/

/** The MIME types a simple request may declare in `Content-Type`. */
const SAFELISTED_CONTENT_TYPES = new Set([
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
])

/** Longest value, in bytes, a CORS-safelisted header may have (Fetch standard §2.2.2). */
export const SAFELISTED_VALUE_MAX = 128

/** Total bytes of safelisted values above which they all count as unsafe (Fetch standard §2.2.2). */
export const SAFELISTED_TOTAL_MAX = 1024

/**
 * The largest byte position Chromium safelists: it reads positions as signed 64-bit integers and
 * refuses the largest one too (checked in Chromium 156: `bytes=0-9223372036854775806` is simple,
 * `bytes=0-9223372036854775807` and `bytes=9223372036854775807-` are preflighted).
 */
const MAX_RANGE_POSITION = 2n ** 63n - 2n

/**
 * Whether a `Range` value is one range the browser may send without a preflight (Fetch
 * standard §2.2.2 uses "parse a single range header value" without whitespace): `bytes=N-`
 * or `bytes=N-M` with N <= M; a suffix range (`bytes=-N`) is not safelisted. Beyond the
 * standard, Chromium preflights a position above {@link MAX_RANGE_POSITION}.
 */
export function isSafelistedRange(value: string): boolean {
  const match = /^bytes=(\d+)-(\d*)$/.exec(value)
  if (match === null) return false
  const start = BigInt(match[1]!)
  const end = match[2]!
  if (start > MAX_RANGE_POSITION) return false
  return end === '' || (BigInt(end) <= MAX_RANGE_POSITION && start <= BigInt(end))
}

/**
 * Chromium's client-hint request headers it safelists when their values parse
 * (`IsCorsSafelistedHeader` in services/network/public/cpp/cors/cors.cc, beyond the Fetch
 * standard; each rule checked in Chromium 156, where a script can set all of them):
 * - decimals (`DPR`, `Device-Memory`, `Downlink`): a digit first, then digits with at most one
 *   `.` that a digit follows (`1.5`, `01`; not `.5`, `1.`, `1.1.1`, `-1`, `1e2`);
 * - integers (`Width`, `Viewport-Width`, `RTT`): digits only;
 * - `ECT`: `slow-2g`, `2g`, `3g` or `4g`, case-sensitive (`4G` is preflighted);
 * - `Save-Data`: `on` in any case.
 */
const CLIENT_HINT_VALUES: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ['dpr', isHintDecimal],
  ['device-memory', isHintDecimal],
  ['downlink', isHintDecimal],
  ['width', isHintInteger],
  ['viewport-width', isHintInteger],
  ['rtt', isHintInteger],
  ['ect', (value: string) => ECT_VALUES.has(value)],
  ['save-data', (value: string) => value.toLowerCase() === 'on'],
])

const ECT_VALUES = new Set(['slow-2g', '2g', '3g', '4g'])

function isHintDecimal(value: string): boolean {
  return /^\d+(\.\d+)?$/.test(value)
}

function isHintInteger(value: string): boolean {
  return /^\d+$/.test(value)
}

/** Why a single header is not CORS-safelisted, in the user's terms; `undefined` when it is. */
export type UnsafeHeaderCause =
  | 'name'
  | 'too-long'
  | 'unsafe-byte'
  | 'language-byte'
  | 'content-type'
  | 'range'
  | 'client-hint'
  | undefined

/**
 * Checks one header against "CORS-safelisted request-header" (Fetch standard §2.2.2) and says
 * why it fails. `value` is the normalized (trimmed) value; its length counts bytes, since
 * header values are byte strings.
 */
export function unsafeHeaderCause(name: string, value: string): UnsafeHeaderCause {
  const lower = name.toLowerCase()
  const hint = CLIENT_HINT_VALUES.get(lower)
  const known =
    hint !== undefined ||
    lower === 'accept' ||
    lower === 'accept-language' ||
    lower === 'content-language' ||
    lower === 'content-type' ||
    lower === 'range'
  if (!known) return 'name'
  if (value.length > SAFELISTED_VALUE_MAX) return 'too-long'
  if (hint !== undefined) return hint(value) ? undefined : 'client-hint'
  switch (lower) {
    case 'accept':
      return hasUnsafeByte(value) ? 'unsafe-byte' : undefined
    case 'accept-language':
    case 'content-language':
      return LANGUAGE_VALUE.test(value) ? undefined : 'language-byte'
    case 'content-type': {
      if (hasUnsafeByte(value)) return 'unsafe-byte'
      const essence = mimeEssence(value)
      return essence !== null && SAFELISTED_CONTENT_TYPES.has(essence) ? undefined : 'content-type'
    }
    default:
      return isSafelistedRange(value) ? undefined : 'range'
  }
}
