/*
 * What the overlay's files share in the page. Types only: the joined script gets nothing from here.
 */
import type { UnmatchedNote } from '../stand-ins/recordings/panel/unmatched-lines.js'
import type { CallExplanation, FailedCall } from './call-types.js'
import type { PageCall, ViolationEntry } from './violation-lines.js'

/** One distinct failure the overlay shows: a card. */
export interface Card {
  /** What failed, for the collapsed card's one line. */
  failed: FailedCall
  /** A call to this dev server (a WebSocket no route takes): not one to another origin. */
  own: boolean
  count: number
  explanation: CallExplanation | undefined
  /** A call no recording matched under `replay: 'only'`: what its 404 said (no explanation is asked). */
  unmatched?: UnmatchedNote
  /** A way a call of this page broke the route's OpenAPI document, as `/violations` lists it. */
  violation?: ViolationEntry
  /** The order the explanations arrived in: the newest card is shown first. */
  arrived: number
  /** The user opened or closed this card; `undefined`: only the newest is open. */
  open: boolean | undefined
}

/** What the overlay's parts share in the page: the cards, and what is still being asked. */
export interface OverlayState {
  /** The dev server's own paths, `/__cors-dev-proxy`. */
  readonly base: string
  /** The page's own `fetch`, before the overlay wrapped it. */
  readonly originalFetch: typeof window.fetch
  readonly pending: Map<string, Promise<CallExplanation | undefined>>
  readonly cards: Map<string, Card>
  arrivals: number
  /** How many cards the list showed last: a new one scrolls the list to its top. */
  shownCards: number
  /** The page's last same-origin calls (at most 50): an OpenAPI card names the one its operation fits. */
  readonly calls: PageCall[]
  /** The next ask of `/violations`, while one is due (a call of the page finished a moment ago). */
  violationTimer?: ReturnType<typeof setTimeout>
  /**
   * How many times each violation had happened when the page loaded (`undefined` until the first
   * answer): a card shows only what this page's calls added.
   */
  violationBaseline?: Promise<Map<string, number>>
}
