import type { CallExplanation, FailedCall } from './call-types.js'
import { renderOverlay } from './overlay-cards.js'
import type { OverlayState } from './overlay-state.js'

/**
 * Whether a URL is of another origin than the page's (a WebSocket's `ws:`/`wss:` compared as
 * `http:`/`https:`); an unreadable URL is not.
 *
 * @example
 * crossOrigin('https://api.example.com/users') // true on http://localhost:5173
 */
export function crossOrigin(url: string): boolean {
  try {
    const parsed = new URL(url, location.href)
    const scheme =
      parsed.protocol === 'wss:' ? 'https:' : parsed.protocol === 'ws:' ? 'http:' : parsed.protocol
    return `${scheme}//${parsed.host}` !== location.origin
  } catch {
    return false
  }
}

/**
 * Counts a failed call on its card, or opens a card and asks the dev server why it failed
 * (`POST /__cors-dev-proxy/explain`), showing the answer when it arrives.
 *
 * @example
 * explainFailure(state, { url, method: 'GET', headers: [], credentials: 'include', initiator: 'WebSocket' })
 */
export function explainFailure(state: OverlayState, failed: FailedCall): void {
  const { cards, pending, originalFetch, base } = state
  // Only what the dev server explains (a data:, blob: or extension URL would be refused 400).
  if (!/^(https?|wss?):/i.test(failed.url)) return
  const key = `${failed.initiator} ${failed.method} ${failed.url.split('?')[0]}`
  const known = cards.get(key)
  if (known !== undefined) {
    known.count += 1
    renderOverlay(state)
    return
  }
  cards.set(key, {
    failed,
    own: !crossOrigin(failed.url),
    count: 1,
    explanation: undefined,
    arrived: 0,
    open: undefined,
  })
  const asked = originalFetch(`${base}/explain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(failed),
  })
    .then((answer) => (answer.ok ? (answer.json() as Promise<CallExplanation>) : undefined))
    .catch(() => undefined)
  pending.set(key, asked)
  void asked.then((explanation) => {
    pending.delete(key)
    const card = cards.get(key)
    if (card === undefined || explanation === undefined) return
    card.explanation = explanation
    state.arrivals += 1
    card.arrived = state.arrivals
    renderOverlay(state)
  })
}
