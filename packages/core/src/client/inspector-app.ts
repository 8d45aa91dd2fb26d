import { $ } from './inspector-dom.js'
import { showExplained } from './inspector-explained.js'
import { renderInspector } from './inspector-list.js'
import { followExchanges } from './inspector-live.js'
import type { Explained, InspectorState } from './inspector-state.js'
import { addViolationsFilter, exchangeOfHash } from './inspector-violations.js'
import type { ServedEndpoints } from './served-endpoints.js'

/**
 * The inspector page's script (served as `/__cors-dev-proxy/inspector.js`: this file and the
 * client files it imports, joined into one immediately invoked function by
 * `scripts/join-client-scripts.mjs`). Lists the recorded exchanges (`inspector-list.ts`), adds new
 * ones as the server streams them (`inspector-live.ts`), filters by route, status and text, shows
 * one in detail (`inspector-detail.ts`), replays it (`inspector-actions.ts`) or writes its answer as a
 * mock file (on routes with `mocks`, the route mocks' panel, stand-ins/route-mocks/panel/), says what a call no recording matched differs in (the recordings' panel, stand-ins/recordings/panel/), marks and filters the exchanges that break a route's OpenAPI document and lists how (`inspector-violations.ts`), links the HAR export, and lists the overlay's explanations
 * of failed calls (`inspector-explained.ts`).
 */
export function inspectorApp(served: ServedEndpoints): void {
  const state: InspectorState = {
    base: '/__cors-dev-proxy',
    exchanges: [],
    mockRoutes: new Set(),
    mocked: new Map(),
    replays: new Map(),
    explained: [],
    // The overlay's OpenAPI card links an exchange: `#exchange=12`.
    selected: exchangeOfHash(location.hash),
    rows: $<HTMLTableSectionElement>('#rows'),
    detail: $<HTMLElement>('#detail'),
    routeFilter: $<HTMLSelectElement>('#route'),
    statusFilter: $<HTMLSelectElement>('#status'),
    textFilter: $<HTMLInputElement>('#text'),
    checks: served.violations === true,
    render: () => renderInspector(state),
  }
  const { base, explained, mockRoutes, render } = state
  for (const input of [state.routeFilter, state.statusFilter, state.textFilter]) {
    input.addEventListener('input', render)
  }
  window.addEventListener('hashchange', () => {
    state.selected = exchangeOfHash(location.hash) ?? state.selected
    render()
  })
  if (served.violations === true) addViolationsFilter(state.statusFilter)

  if (served.explain)
    void fetch(`${base}/explanations`)
      .then((answer) => answer.json())
      .then((list: Explained[]) => {
        explained.push(...list)
        showExplained(explained)
      })

  if (served.mocks)
    void fetch(`${base}/mock`)
      .then((answer) =>
        answer.ok ? (answer.json() as Promise<{ routes: { route: string }[] }>) : { routes: [] },
      )
      .then((list) => {
        for (const { route } of list.routes) mockRoutes.add(route)
        render()
      })

  followExchanges(state)
}
