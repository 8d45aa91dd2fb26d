import {
  readUnmatchedHeader,
  UNMATCHED_DIFF,
  type UnmatchedNote,
} from '../stand-ins/recordings/panel/unmatched-lines.js'
import type { FailedCall } from './call-types.js'
import { renderOverlay } from './overlay-cards.js'
import type { OverlayState } from './overlay-state.js'

/** A call the recordings answered 404 because none matched it (`replay: 'only'`), and their note. */
export interface UnmatchedCall {
  readonly url: string
  readonly method: string
  readonly initiator: FailedCall['initiator']
  readonly note: UnmatchedNote
}

/** What a wrapper does with such a call: the overlay shows its card. */
export type ReportUnmatched = (call: UnmatchedCall) => void

/**
 * The note of an answer, when it is the recordings' 404 for a request none matched; `undefined`
 * for any other answer (read only on a 404, so no other answer's headers are looked at).
 *
 * @example
 * unmatchedNoteOf(response.status, (name) => response.headers.get(name))
 */
export function unmatchedNoteOf(
  status: number,
  header: (name: string) => string | null,
): UnmatchedNote | undefined {
  return status === 404 ? readUnmatchedHeader(header(UNMATCHED_DIFF)) : undefined
}

/**
 * Counts the call on its card, or opens a card for it: no question to the dev server, the answer
 * said it all. One card per method and URL (query included: another query is another request).
 *
 * @example
 * noteUnmatched(state, { url, method: 'GET', initiator: 'fetch', note })
 */
export function noteUnmatched(state: OverlayState, call: UnmatchedCall): void {
  const key = `unmatched ${call.method} ${call.url}`
  const known = state.cards.get(key)
  if (known !== undefined) known.count += 1
  else {
    state.arrivals += 1
    state.cards.set(key, {
      failed: {
        url: call.url,
        method: call.method,
        headers: [],
        credentials: 'same-origin',
        initiator: call.initiator,
      },
      own: true,
      count: 1,
      explanation: undefined,
      unmatched: call.note,
      arrived: state.arrivals,
      open: undefined,
    })
  }
  renderOverlay(state)
}
