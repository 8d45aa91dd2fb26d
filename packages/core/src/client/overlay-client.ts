import type { FailedCall } from './call-types.js'
import { defineOverlayElement } from './overlay-element.js'
import { explainFailure } from './overlay-failures.js'
import type { OverlayState } from './overlay-state.js'
import { noteUnmatched, type UnmatchedCall } from './overlay-unmatched.js'
import { scheduleViolations, startViolations } from './overlay-violations.js'
import { wrapEventSource, wrapFetch, wrapWebSocket, wrapXhr } from './overlay-wrappers.js'
import type { ServedEndpoints } from './served-endpoints.js'
import type { PageCall } from './violation-lines.js'

/**
 * The overlay's client, run in the page (served as `/__cors-dev-proxy/client.js`: this file and
 * the client files it imports, joined into one immediately invoked function by
 * `scripts/join-client-scripts.mjs`; they import nothing else but types, which the compiler
 * erases: `call-types.ts`, shared with the dev server).
 *
 * What it touches: it replaces `window.fetch`, `window.EventSource` and `window.WebSocket` with
 * wrappers, and `XMLHttpRequest.prototype.open`/`setRequestHeader`/`send` with wrappers that
 * call the originals (`overlay-wrappers.ts`). A same-origin call goes straight to the original,
 * untouched. A call to another origin is sent exactly as written (no header added: that would
 * change the preflight), and returns or throws exactly what the original does; only when it fails
 * (fetch's TypeError, an XHR `error`, an EventSource or WebSocket `error`) does the client POST
 * what the page knows to `/__cors-dev-proxy/explain` (`overlay-failures.ts`) and show the answer
 * in `<cors-dev-proxy-overlay>` (`overlay-element.ts`, its cards in `overlay-cards.ts`). A fetch
 * or XHR answered 404 with the recordings' note (`replay: 'only'` found no recording,
 * `overlay-unmatched.ts`) gets a card too, from the note alone. Where a route has `openapi`, a
 * same-origin call's end makes the overlay ask `/__cors-dev-proxy/violations` twice, shortly
 * after (`overlay-violations.ts`), and show a card per violation the page's calls caused. Nothing
 * else runs, and nothing else is sent, while calls succeed.
 */
export function overlayClient(served: ServedEndpoints): void {
  const w = window as unknown as Record<string, unknown> & Window
  if (w.__corsDevProxyClient === true) return
  w.__corsDevProxyClient = true
  const state: OverlayState = {
    base: '/__cors-dev-proxy',
    originalFetch: window.fetch.bind(window),
    pending: new Map(),
    cards: new Map(),
    arrivals: 0,
    shownCards: 0,
    calls: [],
  }
  // Only where the dev server explains (`served`: what exists, told by the dev server).
  const report = (failed: FailedCall): void => {
    if (served.explain) explainFailure(state, failed)
  }
  // A same-origin call the recordings answered 404 under replay: 'only' (their note in its head).
  const unmatched = (call: UnmatchedCall): void => {
    if (served.explain) noteUnmatched(state, call)
  }
  // A route has `openapi`: after the page's same-origin calls, ask which of them broke its document.
  const violations = served.violations === true
  if (violations) startViolations(state)
  const completed = (call: PageCall): void => {
    if (violations) scheduleViolations(state, call)
  }
  wrapFetch(state.originalFetch, report, unmatched, completed)
  wrapXhr(report, unmatched, completed)
  wrapEventSource(report)
  wrapWebSocket(report)
  defineOverlayElement(state.base)
}
