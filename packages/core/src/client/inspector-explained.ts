import { $, el } from './inspector-dom.js'
import type { Explained } from './inspector-state.js'

/**
 * Lists the overlay's explanations of failed calls, newest first: the verdict, and what was
 * probed for it; hidden while there is none.
 *
 * @example
 * showExplained(state.explained)
 */
export function showExplained(explained: readonly Explained[]): void {
  $<HTMLElement>('#explained').hidden = explained.length === 0
  $<HTMLElement>('#explained summary').textContent =
    `Failed calls the overlay explained (${explained.length})`
  const items = explained.map(({ method, url, explanation }) => {
    const item = el('li')
    item.append(
      el('div', `${method} ${url}`, 'call'),
      el('div', explanation.message ?? explanation.cause),
      el('div', explanation.probe?.text ?? '', 'muted probe'),
    )
    return item
  })
  $<HTMLElement>('#explanations').replaceChildren(...items)
}
