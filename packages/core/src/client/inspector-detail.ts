import { unmatchedSection } from '../stand-ins/recordings/panel/unmatched-detail.js'
import { mockButton } from '../stand-ins/route-mocks/panel/mock-button.js'
import { replayButton } from './inspector-actions.js'
import { el, ms } from './inspector-dom.js'
import type { InspectorState, View } from './inspector-state.js'
import { violationsSection } from './inspector-violations.js'

/** A titled table of name-value pairs (headers, or the exchange's facts). */
function headerTable(title: string, headers: [string, string][]): HTMLElement {
  const section = el('section')
  section.append(el('h3', title))
  const table = el('table', undefined, 'headers')
  for (const [name, value] of headers) {
    const tr = el('tr')
    tr.append(el('th', name), el('td', value))
    table.append(tr)
  }
  section.append(table)
  return section
}

/** What the detail says about an exchange besides its headers and bodies. */
function exchangeFacts(view: View): [string, string][] {
  const facts: [string, string][] = [
    ['route', view.route],
    ['upstream URL', view.upstreamUrl ?? '–'],
    [
      'protocol',
      `browser → dev server: ${view.clientProtocol}; dev server → upstream: ${view.upstreamProtocol ?? '–'}`,
    ],
    ['time to first byte', ms(view.ttfb)],
    ['total', ms(view.total)],
    ['bytes', `${view.requestBytes} up, ${view.responseBytes} down`],
    ['CORS', `${view.cors.outcome}: ${view.cors.rule}`],
    ['hooks', view.hooks.length === 0 ? 'none' : view.hooks.join(', ')],
  ]
  if (view.cors.message !== undefined) facts.push(['console', view.cors.message])
  if (view.cors.fix !== undefined) facts.push(['fix', view.cors.fix])
  if (view.ours === 'probe')
    facts.push(['sent by', "cors-dev-proxy: the overlay's explanation probe of a failed call, not the page"])
  if (view.replayOf !== undefined) facts.push(['replay of', `#${view.replayOf}`])
  if (view.replayedFrom !== undefined) facts.push(['replayed from', view.replayedFrom])
  if (view.mockedFrom !== undefined) facts.push(['mocked by', view.mockedFrom])
  return facts
}

/**
 * Shows one exchange in the detail pane: its line with Replay (and "Mock this answer" on a route
 * with `mocks`), its facts, headers and bodies; or asks to select one.
 *
 * @example
 * showDetail(state, state.exchanges.find((view) => view.id === state.selected))
 */
export function showDetail(state: InspectorState, view: View | undefined): void {
  const { detail, mockRoutes } = state
  detail.replaceChildren()
  if (view === undefined) {
    detail.append(el('p', 'Select an exchange.', 'muted'))
    return
  }
  const head = el('div', undefined, 'detail-head')
  head.append(el('h2', `${view.method} ${view.url} → ${view.status}`))
  head.append(replayButton(state, view))
  if (mockRoutes.has(view.route) && view.mockedFrom === undefined && view.status > 0) {
    head.append(mockButton(state, view))
  }
  detail.append(head)
  // First, when there: what the page must change for its call to find a recording.
  const unmatched = unmatchedSection(view)
  if (unmatched !== undefined) detail.append(unmatched)
  // Then what the route's OpenAPI document says of it (a route with `openapi` only).
  const openapi = violationsSection(view)
  if (openapi !== undefined) detail.append(openapi)
  detail.append(headerTable('Exchange', exchangeFacts(view)))
  detail.append(headerTable('Request headers', view.requestHeaders))
  detail.append(headerTable('Response headers', view.responseHeaders))
  for (const [title, body] of [
    ['Request body', view.requestBody],
    ['Response body', view.responseBody],
  ] as const) {
    const section = el('section')
    section.append(el('h3', title))
    section.append(el('pre', body ?? 'not kept (bodies are copied only while an inspector is open)'))
    detail.append(section)
  }
}
