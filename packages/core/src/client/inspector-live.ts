import { $ } from './inspector-dom.js'
import { showExplained } from './inspector-explained.js'
import type { Explained, InspectorState, View } from './inspector-state.js'
import { followCheck } from './inspector-violations.js'

/**
 * Loads the recorded exchanges, then follows the server's stream (`GET /events`): each new
 * exchange joins the list (the last 2000 kept), each new explanation the overlay's list (the last
 * 100), and the page says whether the stream is live.
 *
 * @example
 * followExchanges(state)
 */
export function followExchanges(state: InspectorState): void {
  const { base, exchanges, explained, render } = state
  void fetch(`${base}/exchanges`)
    .then((answer) => answer.json())
    .then((list: View[]) => {
      exchanges.push(...list)
      render()
      const events = new EventSource(`${base}/events`)
      events.addEventListener('exchange', (event) => {
        const view = JSON.parse((event as MessageEvent<string>).data) as View
        // The same exchange again replaces it (its OpenAPI check, done after the answer closed).
        const at = exchanges.findLastIndex((one) => one.id === view.id)
        if (at >= 0) exchanges[at] = view
        else exchanges.push(view)
        if (exchanges.length > 2000) exchanges.shift()
        render()
        followCheck(state)
      })
      events.addEventListener('explanation', (event) => {
        explained.unshift(JSON.parse((event as MessageEvent<string>).data) as Explained)
        if (explained.length > 100) explained.pop()
        showExplained(explained)
      })
      events.addEventListener('open', () => {
        $<HTMLElement>('#live').textContent = '● live'
      })
      events.addEventListener('error', () => {
        $<HTMLElement>('#live').textContent = '○ reconnecting'
      })
    })
}
