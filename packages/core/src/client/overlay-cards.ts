import { unmatchedCardBody } from '../stand-ins/recordings/panel/unmatched-card.js'
import type { CallExplanation } from './call-types.js'
import type { Card, OverlayState } from './overlay-state.js'
import { violationCardBody, violationSummary } from './violation-card.js'
import { violationsTitle } from './violation-lines.js'

/** A `<div>` of a class with a text. */
function line(className: string, text: string): HTMLElement {
  const element = document.createElement('div')
  element.className = className
  element.textContent = text
  return element
}

/** The card's body: an OpenAPI violation, a call no recording matched, or a failed call's explanation. */
function cardBody(base: string, card: Card): HTMLElement {
  if (card.violation !== undefined) return violationCardBody(base, card.violation, card.failed)
  if (card.unmatched !== undefined) return unmatchedCardBody(card.unmatched)
  return explanationBody(card.explanation as CallExplanation)
}

/** One card: a line naming the call (a click opens or closes it), and the explanation. */
function cardElement(base: string, card: Card, open: boolean): HTMLElement {
  const element = document.createElement('details')
  element.className = 'card'
  element.open = open
  const summary = document.createElement('summary')
  if (card.count > 1) {
    const count = document.createElement('span')
    count.className = 'count'
    count.textContent = `×${card.count}`
    summary.append(count)
  }
  summary.append(
    card.violation === undefined
      ? `${card.failed.initiator} ${card.failed.method} ${card.failed.url}`
      : violationSummary(card.violation, card.failed),
  )
  element.append(summary)
  // A click (or Enter) on the summary toggles the card: remembered, as the list is rebuilt
  // when another failure arrives. Not the `toggle` event, which setting `open` fires too.
  summary.addEventListener('click', () => {
    card.open = !element.open
  })
  element.append(cardBody(base, card))
  return element
}

/** A failed call's explanation: the fix, why, and Chromium's words. */
function explanationBody(explanation: CallExplanation): HTMLElement {
  const body = document.createElement('div')
  body.className = 'body'
  const where =
    explanation.routeWhere ??
    (explanation.routeExists
      ? 'the route exists: call it instead'
      : 'add the route to corsDevProxy({ ... }) in your config')
  const fix = `// ${where}\n${explanation.route}\n// and call\n${explanation.call}`
  body.append(line('fix', fix))
  const row = document.createElement('div')
  row.className = 'row'
  const copy = document.createElement('button')
  copy.textContent = 'Copy the fix'
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(fix).then(
      () => {
        copy.textContent = 'Copied'
      },
      () => {
        copy.textContent = 'Select and copy the text above'
      },
    )
  })
  row.append(copy)
  if (explanation.serverFix !== undefined)
    row.append(line('muted', `Or on the server: ${explanation.serverFix}`))
  body.append(row)
  // The fix first, then why, then Chromium's words: in a panel a third of the window high,
  // what to change is what must be in sight without scrolling.
  body.append(line('cause', explanation.cause))
  for (const note of explanation.cookies ?? []) body.append(line('cause', note))
  // What the dev server sent to find this out (never the page's POST, PUT, PATCH or DELETE), and how sure it is.
  if (explanation.probe !== undefined) body.append(line('muted probe', explanation.probe.text))
  if (explanation.message !== undefined) body.append(line('message', explanation.message))
  return body
}

/** The panel's title: the failed calls (see `failedTitle`), and those no recording matched. */
function titleOf(ready: readonly Card[]): string {
  const violations = ready.filter((card) => card.violation !== undefined).length
  const failed = ready.filter((card) => card.unmatched === undefined && card.violation === undefined)
  const unmatched = ready.length - failed.length - violations
  const parts: string[] = []
  if (failed.length > 0) parts.push(failedTitle(failed))
  if (unmatched > 0) parts.push(`no recording matched ${unmatched === 1 ? 'a call' : `${unmatched} calls`}`)
  if (violations > 0) parts.push(violationsTitle(violations))
  return `cors-dev-proxy: ${parts.join('; ')}`
}

/** The title of failed calls, counting calls to other origins and calls to this dev server apart. */
function failedTitle(ready: readonly Card[]): string {
  const own = ready.filter((card) => card.own).length
  const other = ready.length - own
  const others = other === 1 ? 'a call to another origin' : `${other} calls to other origins`
  const owns = own === 1 ? 'a call to this dev server' : `${own} calls to this dev server`
  if (own === 0) return `${others} failed`
  if (other === 0) return `${owns} failed`
  return `${ready.length} calls failed: ${other} to ${other === 1 ? 'another origin' : 'other origins'}, ${own} to this dev server`
}

/**
 * Shows the cards whose explanation arrived, newest first and open, in the overlay (added to the
 * page when missing), under a title that counts them.
 *
 * @example
 * renderOverlay(state)
 */
export function renderOverlay(state: OverlayState): void {
  const { cards } = state
  // Vite's error overlay is about the build: it stays on top, ours waits.
  if (document.querySelector('vite-error-overlay') !== null) return
  const ready = [...cards.values()]
    .filter(
      (card) =>
        card.explanation !== undefined || card.unmatched !== undefined || card.violation !== undefined,
    )
    .sort((a, b) => b.arrived - a.arrived)
  if (ready.length === 0) return
  let overlay = document.querySelector('cors-dev-proxy-overlay')
  if (overlay === null) {
    overlay = document.createElement('cors-dev-proxy-overlay')
    document.body.appendChild(overlay)
  }
  const root = overlay.shadowRoot
  const list = root?.querySelector('.cards')
  if (root == null || list == null) return
  const title = root.querySelector('.title')
  if (title !== null) title.textContent = titleOf(ready)
  list.replaceChildren(...ready.map((card, index) => cardElement(state.base, card, card.open ?? index === 0)))
  // A new failure shows at the top; a repeat (a counter) leaves the list where the user scrolled it.
  if (ready.length > state.shownCards) list.scrollTop = 0
  state.shownCards = ready.length
}
