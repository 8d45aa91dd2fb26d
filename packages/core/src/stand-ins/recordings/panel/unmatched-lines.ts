/*
 * The recordings' part of the pages (browser code, joined into the overlay's and the inspector's
 * scripts by scripts/join-client-scripts.mjs): what a request no recording matched under
 * `replay: 'only'` differs in, from `X-Cors-Dev-Proxy-Unmatched-Diff`
 * (stand-ins/recordings/unmatched-note.ts, whose types these mirror: a panel imports no server
 * code). This file is the words, pure and DOM-free; `unmatched-card.ts` is the overlay's card,
 * `unmatched-detail.ts` the inspector's section. Every value here is request data: the callers
 * put it in the page as text (`textContent`), never as HTML.
 */

/** One part that differs; `recorded` or `request` absent where that side lacks it. */
export interface UnmatchedDifference {
  readonly part: string
  readonly name?: string
  readonly recorded?: string
  readonly request?: string
}

/** The header's note: the route, the closest recording's file, the differences and the fixes. */
export interface UnmatchedNote {
  readonly route: string
  readonly closest: string | null
  readonly differences: readonly UnmatchedDifference[]
  readonly more: number
  readonly fixes: readonly { readonly why: string; readonly config: string }[]
}

/** One difference as a row: which part, what this call had, what the recording has. */
export interface UnmatchedRow {
  readonly part: string
  readonly request: string
  readonly recorded: string
}

/** The header's name, as stand-ins/recordings/unmatched-note.ts writes it. */
export const UNMATCHED_DIFF = 'x-cors-dev-proxy-unmatched-diff'

/**
 * A part in words: `method`, `path`, `query key page`, `body field tags.color`, `body`, `header x-tenant`.
 *
 * @example
 * unmatchedPart({ part: 'query', name: 'page' }) // 'query key page'
 */
export function unmatchedPart(difference: UnmatchedDifference): string {
  if (difference.name === undefined) return difference.part
  const kind =
    difference.part === 'query' ? 'query key' : difference.part === 'body' ? 'body field' : difference.part
  return `${kind} ${difference.name}`
}

/**
 * The differences as rows, `(none)` where a side lacks the part, and a last row counting those
 * the header left out.
 *
 * @example
 * unmatchedRows(note) // [{ part: 'query key page', request: '3', recorded: '2' }]
 */
export function unmatchedRows(note: UnmatchedNote): UnmatchedRow[] {
  const rows = note.differences.map((difference) => ({
    part: unmatchedPart(difference),
    request: difference.request ?? '(none)',
    recorded: difference.recorded ?? '(none)',
  }))
  if (note.more > 0) rows.push({ part: `${note.more} more`, request: '…', recorded: '…' })
  return rows
}

/**
 * The one line that names what differs: `no recording matched under replay: 'only': query key page
 * differs from the closest recording`.
 *
 * @example
 * unmatchedHeadline(note) // "no recording matched under replay: 'only' (route '/api'): query key page differs from the closest recording"
 */
export function unmatchedHeadline(note: UnmatchedNote): string {
  const head = `no recording matched under replay: 'only' (route '${note.route}')`
  if (note.closest === null) return `${head}: the route has no recording yet`
  if (note.differences.length === 0)
    return `${head}: it differs from the closest recording in nothing the key shows (a secret, or an edited file)`
  const parts = note.differences.map(unmatchedPart)
  const named =
    parts.length > 3
      ? `${parts.slice(0, 3).join(', ')} and ${parts.length - 3 + note.more} more`
      : parts.join(', ')
  return `${head}: ${named} ${parts.length === 1 ? 'differs' : 'differ'} from the closest recording`
}

function isNoteText(value: unknown): boolean {
  return value === undefined || typeof value === 'string'
}

/**
 * The note a header value holds, or `undefined` (missing, or not a note).
 *
 * @example
 * readUnmatchedHeader(response.headers.get(UNMATCHED_DIFF))
 */
export function readUnmatchedHeader(value: string | null | undefined): UnmatchedNote | undefined {
  if (value === null || value === undefined) return undefined
  try {
    const note = JSON.parse(value) as UnmatchedNote
    const fine =
      typeof note.route === 'string' &&
      (note.closest === null || typeof note.closest === 'string') &&
      Array.isArray(note.differences) &&
      note.differences.every(
        (one) =>
          typeof one.part === 'string' &&
          isNoteText(one.name) &&
          isNoteText(one.recorded) &&
          isNoteText(one.request),
      ) &&
      Array.isArray(note.fixes) &&
      note.fixes.every((fix) => typeof fix.why === 'string' && typeof fix.config === 'string')
    return fine ? { ...note, more: typeof note.more === 'number' ? note.more : 0 } : undefined
  } catch {
    return undefined
  }
}
