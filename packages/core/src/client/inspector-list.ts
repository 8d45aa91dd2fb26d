import { showDetail } from './inspector-detail.js'
import { $, el, ms } from './inspector-dom.js'
import type { InspectorState, View } from './inspector-state.js'
import { VIOLATIONS_FILTER, violationsHaystack, violationsMark } from './inspector-violations.js'

/** Whether an exchange passes the route, status and text filters. */
function matches(state: InspectorState, view: View): boolean {
  const { routeFilter, statusFilter, textFilter } = state
  if (routeFilter.value !== '' && view.route !== routeFilter.value) return false
  const status = statusFilter.value
  // Our own probe's verdict is the explanation of a failed call, not another failure of the page.
  if (
    status === 'failed' &&
    (view.ours !== undefined || (view.status < 400 && view.cors.outcome !== 'blocked' && !view.aborted))
  )
    return false
  if (status === VIOLATIONS_FILTER && (view.violations ?? []).length === 0) return false
  if (/^\dxx$/.test(status) && String(view.status)[0] !== status[0]) return false
  const text = textFilter.value.trim().toLowerCase()
  if (text !== '') {
    const haystack =
      `${view.method} ${view.url} ${view.upstreamUrl ?? ''} ${view.status} ${view.cors.outcome}${view.unmatched !== undefined ? ' no recording matched' : ''}${violationsHaystack(view.violations)}`.toLowerCase()
    if (!haystack.includes(text)) return false
  }
  return true
}

/** One exchange's row of the list; a click selects it. */
function exchangeRow(state: InspectorState, view: View): HTMLTableRowElement {
  const tr = document.createElement('tr')
  tr.dataset.id = String(view.id)
  tr.className =
    `${view.id === state.selected ? 'selected' : ''}${view.ours !== undefined ? ' ours' : ''}${view.unmatched !== undefined ? ' unmatched' : ''}${(view.violations ?? []).length > 0 ? ' violations' : ''}`.trim()
  const status = el(
    'td',
    `${view.status}${view.aborted ? ' (aborted)' : ''}${view.replayedFrom !== undefined ? ' (replayed)' : ''}${view.mockedFrom !== undefined ? ' (mocked)' : ''}${view.unmatched !== undefined ? ' (no recording matched)' : ''}${violationsMark(view.violations)}${view.ours === 'probe' ? ' (our probe)' : ''}`,
    `s${String(view.status)[0]}`,
  )
  // The URL columns are cut to fit the list: the whole URL is in the cell's tooltip.
  const path = el('td', view.url, 'url')
  path.title = view.url
  const upstream = el(
    'td',
    view.upstreamUrl ?? (view.upstreamProtocol === 'mock' ? 'mock backend' : '–'),
    'url',
  )
  upstream.title = upstream.textContent ?? ''
  tr.append(
    el('td', new Date(view.startedAt).toLocaleTimeString([], { hour12: false })),
    el('td', view.method),
    path,
    upstream,
    status,
    el('td', `${view.clientProtocol} → ${view.upstreamProtocol ?? '–'}`),
    el('td', `${ms(view.ttfb)} / ${ms(view.total)}`),
    el('td', view.cors.outcome, `cors-${view.cors.outcome}`),
  )
  tr.addEventListener('click', () => {
    state.selected = view.id
    state.render()
  })
  return tr
}

/**
 * Shows the exchanges that pass the filters, newest first, the route filter's choices, the count,
 * and the selected exchange's detail.
 *
 * @example
 * renderInspector(state)
 */
export function renderInspector(state: InspectorState): void {
  const { exchanges, routeFilter, rows } = state
  const routes = [...new Set(exchanges.map((view) => view.route))].sort()
  const current = routeFilter.value
  if (routeFilter.options.length !== routes.length + 1) {
    routeFilter.replaceChildren(el('option', 'all routes'))
    ;(routeFilter.options[0] as HTMLOptionElement).value = ''
    for (const route of routes) routeFilter.append(el('option', route))
    routeFilter.value = current
  }
  const shown = exchanges.filter((view) => matches(state, view)).reverse()
  rows.replaceChildren(...shown.map((view) => exchangeRow(state, view)))
  $<HTMLElement>('#count').textContent = `${shown.length} of ${exchanges.length} exchanges`
  showDetail(
    state,
    exchanges.find((view) => view.id === state.selected),
  )
}
