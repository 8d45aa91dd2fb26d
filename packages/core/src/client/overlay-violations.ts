import { renderOverlay } from './overlay-cards.js'
import type { OverlayState } from './overlay-state.js'
import {
  callOfOperation,
  type PageCall,
  readViolationEntries,
  type ViolationEntry,
  violationKey,
} from './violation-lines.js'

/*
 * The overlay's OpenAPI cards. The dev server checks an exchange against its route's `openapi`
 * document after the answer has closed, so the page's call has finished before its violations
 * exist: after a same-origin call of the page completes, the overlay asks
 * `/__cors-dev-proxy/violations` once about 300 ms after the last such call and once more a second
 * later, then stops (no poll that runs forever; the next call asks again). It asks with the
 * page's fetch from before the wrappers, so the ask is not itself a call of the page.
 */

/** How long after the page's last call the list is asked, then asked again. */
const FIRST_ASK_MS = 300
const SECOND_ASK_MS = 1000
/** How many of the page's calls are kept to name the call of a card. */
const KEPT_CALLS = 50

/** How often, and how far apart, the list is asked again while the dev server still runs checks. */
const PENDING_ASKS = 40
const PENDING_ASK_MS = 500

/** The list as the dev server has it now, and how many checks it still runs; empty when it cannot be read. */
function fetchViolations(state: OverlayState): Promise<{ entries: ViolationEntry[]; pending: number }> {
  return state
    .originalFetch(`${state.base}/violations`, { headers: { accept: 'application/json' } })
    .then(async (answer) => ({
      entries: readViolationEntries(answer.ok ? await answer.json() : []),
      pending: Number(answer.headers.get('x-cors-dev-proxy-pending-checks')) || 0,
    }))
    .catch(() => ({ entries: [], pending: 0 }))
}

/**
 * Counts what had happened before the page loaded, once, so that its cards show only what this
 * page's calls added (a reload does not bring back the last page's cards, a repeated call does).
 *
 * @example
 * if (served.violations) startViolations(state)
 */
export function startViolations(state: OverlayState): void {
  state.violationBaseline = fetchViolations(state).then(
    ({ entries }) => new Map(entries.map((entry) => [violationKey(entry), entry.count])),
  )
}

/**
 * Opens a card for each violation this page's calls caused that has none yet, and counts again
 * those that have one; shows the overlay when anything changed.
 *
 * @example
 * showViolations(state, entries, new Map())
 */
export function showViolations(
  state: OverlayState,
  entries: readonly ViolationEntry[],
  baseline: ReadonlyMap<string, number>,
): void {
  let changed = false
  for (const entry of entries) {
    const key = violationKey(entry)
    const count = entry.count - (baseline.get(key) ?? 0)
    if (count <= 0) continue
    const known = state.cards.get(key)
    if (known !== undefined) {
      if (known.count === count) continue
      known.count = count
      known.violation = entry
      // The link goes to the last exchange: the call line names it too, when the list does.
      if (entry.url !== undefined) known.failed = { ...known.failed, ...callOfEntry(state, entry) }
    } else {
      state.arrivals += 1
      const call = callOfEntry(state, entry)
      state.cards.set(key, {
        failed: {
          url: call?.url ?? '',
          method: call?.method ?? '',
          headers: [],
          credentials: 'same-origin',
          initiator: 'fetch',
        },
        own: true,
        count,
        explanation: undefined,
        violation: entry,
        arrived: state.arrivals,
        open: undefined,
      })
    }
    changed = true
  }
  if (changed) renderOverlay(state)
}

/**
 * The call a card names: the one the list gives (its last exchange's, made absolute as the
 * page's own calls are), else the page's latest call that fits the operation.
 */
function callOfEntry(state: OverlayState, entry: ViolationEntry): PageCall | undefined {
  if (entry.method !== undefined && entry.url !== undefined)
    return { method: entry.method, url: new URL(entry.url, location.href).href }
  return callOfOperation(state.calls, entry.operation)
}

/**
 * Asks the list and shows what is new; while the dev server still runs checks (the first ones
 * wait for the document to load, slow on a busy machine), asks again, a bounded number of times.
 */
function askViolations(state: OverlayState, asksLeft = PENDING_ASKS): void {
  const baseline = state.violationBaseline ?? Promise.resolve(new Map<string, number>())
  void Promise.all([baseline, fetchViolations(state)]).then(([before, { entries, pending }]) => {
    showViolations(state, entries, before)
    if (pending > 0 && asksLeft > 0) setTimeout(() => askViolations(state, asksLeft - 1), PENDING_ASK_MS)
  })
}

/**
 * A same-origin call of the page finished: notes it, and asks the list ~300 ms after the last
 * such call, and once more a second after that (a later call starts the count again).
 *
 * @example
 * wrapFetch(originalFetch, report, unmatched, (call) => scheduleViolations(state, call))
 */
export function scheduleViolations(state: OverlayState, call: PageCall): void {
  // The overlay's own asks go through the page's original fetch: only the page's calls get here.
  state.calls.push(call)
  if (state.calls.length > KEPT_CALLS) state.calls.shift()
  clearTimeout(state.violationTimer)
  state.violationTimer = setTimeout(() => {
    askViolations(state)
    state.violationTimer = setTimeout(() => {
      state.violationTimer = undefined
      askViolations(state)
    }, SECOND_ASK_MS)
  }, FIRST_ASK_MS)
}
