import type { Difference } from './recording-diff.js'
import type { UnmatchedFix } from './unmatched-fix.js'

/*
 * The differences of a request no recording matches, as data for the pages: the overlay's client
 * reads them off the page's own 404 (a same-origin answer shows it every header), the inspector's
 * exchange view off the recorded head. `X-Cors-Dev-Proxy-Unmatched` stays the one line a person
 * (and the Playwright fixture) reads; this header holds the same differences as JSON, every
 * character outside printable ASCII escaped (`\u00e9`), so no value is lost to the header's rules,
 * and bounded: each value cut to 80 characters, at most 12 differences.
 */

/** The header holding the differences as JSON. */
export const UNMATCHED_DIFF_HEADER = 'x-cors-dev-proxy-unmatched-diff'

/** What the header holds. */
export interface UnmatchedNote {
  /** The route's prefix. */
  readonly route: string
  /** The closest recording's file, `null` for a route with none. */
  readonly closest: string | null
  readonly differences: readonly Difference[]
  /** How many differences were left out beyond the first 12. */
  readonly more: number
  readonly fixes: readonly UnmatchedFix[]
}

const MAX_DIFFERENCES = 12

function cut(value: string | undefined): string | undefined {
  return value === undefined || value.length <= 80 ? value : `${value.slice(0, 77)}...`
}

/**
 * The header's value: the note as JSON in printable ASCII.
 *
 * @example
 * res.setHeader(UNMATCHED_DIFF_HEADER, encodeUnmatchedNote(note))
 */
export function encodeUnmatchedNote(note: Omit<UnmatchedNote, 'more'>): string {
  const differences = note.differences.slice(0, MAX_DIFFERENCES).map((difference) => ({
    part: difference.part,
    ...(difference.name === undefined ? {} : { name: cut(difference.name) }),
    ...(difference.recorded === undefined ? {} : { recorded: cut(difference.recorded) }),
    ...(difference.request === undefined ? {} : { request: cut(difference.request) }),
  }))
  const json = JSON.stringify({
    route: note.route,
    closest: note.closest,
    differences,
    more: Math.max(0, note.differences.length - MAX_DIFFERENCES),
    fixes: note.fixes,
  })
  // JSON.stringify escapes the control characters; the rest outside ASCII is escaped here.
  return json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

const PARTS = new Set(['method', 'path', 'query', 'body', 'header'])

function isText(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string'
}

function isDifference(value: unknown): value is Difference {
  if (value === null || typeof value !== 'object') return false
  const { part, name, recorded, request } = value as Record<string, unknown>
  return PARTS.has(part as string) && isText(name) && isText(recorded) && isText(request)
}

function isFix(value: unknown): value is UnmatchedFix {
  if (value === null || typeof value !== 'object') return false
  const { why, config } = value as Record<string, unknown>
  return typeof why === 'string' && typeof config === 'string'
}

/**
 * The note a header holds, or `undefined` for a missing or malformed one (a response head is
 * whatever the answer carried).
 *
 * @example
 * readUnmatchedNote(getHeader(headers, UNMATCHED_DIFF_HEADER))?.differences
 */
export function readUnmatchedNote(value: string | undefined): UnmatchedNote | undefined {
  if (value === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return undefined
  }
  if (parsed === null || typeof parsed !== 'object') return undefined
  const { route, closest, differences, more, fixes } = parsed as Record<string, unknown>
  if (typeof route !== 'string' || (closest !== null && typeof closest !== 'string')) return undefined
  if (!Array.isArray(differences) || !differences.every(isDifference)) return undefined
  if (!Array.isArray(fixes) || !fixes.every(isFix)) return undefined
  return { route, closest, differences, more: typeof more === 'number' ? more : 0, fixes }
}
