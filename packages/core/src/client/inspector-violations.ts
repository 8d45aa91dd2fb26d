import { el } from './inspector-dom.js'
import type { InspectorState, View } from './inspector-state.js'
import { type Violation, violationsTitle } from './violation-lines.js'

/*
 * The inspector's part of a route's `openapi` check: the "OpenAPI" section of an exchange's
 * detail (a table of the violations, and why the check was skipped when it was), and the status
 * filter's "OpenAPI violations" choice. Text only: the values quoted came from the page's request
 * or the backend's answer.
 */

/** What the section needs of an exchange view (client/inspector-state.ts). */
export interface ViolationsView {
  /** Absent on a route without `openapi`; empty when checked and clean. */
  readonly violations?: readonly Violation[]
  /** Why the exchange was not checked (an event stream, a body over the size limit…). */
  readonly contractSkipped?: string
}

/** The status filter's value that keeps only the exchanges with violations. */
export const VIOLATIONS_FILTER = 'violations'

/** The violations as a table: side, operation, pointer, message, expected, actual. */
function violationsTable(violations: readonly Violation[]): HTMLElement {
  const table = el('table', undefined, 'headers violations')
  const head = el('tr')
  for (const name of ['side', 'operation', 'pointer', 'message', 'expected', 'actual'])
    head.append(el('th', name))
  table.append(head)
  for (const one of violations) {
    const tr = el('tr')
    tr.append(
      el('th', one.in),
      el('td', one.operation),
      el('td', one.pointer === '' ? '(the whole body)' : one.pointer),
      el('td', one.message),
      el('td', one.expected ?? '–'),
      el('td', one.actual ?? '–'),
    )
    table.append(tr)
  }
  return table
}

/**
 * The section, or `undefined` for an exchange of a route without `openapi` (nothing to say).
 *
 * @example
 * const section = violationsSection(view)
 * if (section !== undefined) detail.append(section)
 */
export function violationsSection(view: ViolationsView): HTMLElement | undefined {
  if (view.violations === undefined && view.contractSkipped === undefined) return undefined
  const violations = view.violations ?? []
  const section = el('section', undefined, violations.length > 0 ? 'openapi broken' : 'openapi')
  section.append(el('h3', 'OpenAPI'))
  if (view.contractSkipped !== undefined)
    section.append(el('p', `not checked: ${view.contractSkipped}`, 'muted skipped'))
  else if (violations.length === 0)
    section.append(el('p', "the request and the answer match the route's OpenAPI document"))
  else section.append(violationsTable(violations))
  return section
}

/**
 * Adds "OpenAPI violations" to the status filter's choices (where a route has `openapi`).
 *
 * @example
 * if (served.violations) addViolationsFilter(state.statusFilter)
 */
export function addViolationsFilter(statusFilter: HTMLSelectElement): void {
  const option = el('option', 'OpenAPI violations') as HTMLOptionElement
  option.value = VIOLATIONS_FILTER
  statusFilter.append(option)
}

/**
 * The exchange the page's address names (`#exchange=12`, as the overlay's card links it).
 *
 * @example
 * state.selected = exchangeOfHash(location.hash)
 */
export function exchangeOfHash(hash: string): number | undefined {
  const id = /^#exchange=(\d+)$/.exec(hash)?.[1]
  return id === undefined ? undefined : Number(id)
}

/**
 * The text an exchange's row is filtered by: the word "violation" and each operation broken.
 *
 * @example
 * violationsHaystack([{ in: 'response', operation: 'GET /pets', pointer: '/0', message: '' }])
 * // ' openapi violation GET /pets'
 */
export function violationsHaystack(violations: readonly Violation[] | undefined): string {
  if (violations === undefined || violations.length === 0) return ''
  return ` openapi violation ${[...new Set(violations.map((one) => one.operation))].join(' ')}`
}

/**
 * The mark on an exchange's status cell: how many violations, none for a clean or unchecked one.
 *
 * @example
 * violationsMark([a, b]) // ' (2 OpenAPI violations)'
 */
export function violationsMark(violations: readonly Violation[] | undefined): string {
  if (violations === undefined || violations.length === 0) return ''
  return ` (${violationsTitle(violations.length).replace(/^an /, '1 ')})`
}

/** How long after an exchange of a route with `openapi` arrives its check is read again. */
const CHECK_REFRESH_MS = 1500

/** Puts the checks `/exchanges` has now on the exchanges the page holds; `true` when one changed. */
function takeChecks(state: InspectorState, fresh: readonly View[]): boolean {
  const byId = new Map(fresh.map((view) => [view.id, view]))
  let changed = false
  state.exchanges.forEach((view, index) => {
    const now = byId.get(view.id)
    if (now === undefined) return
    if (
      (now.violations?.length ?? -1) === (view.violations?.length ?? -1) &&
      now.contractSkipped === view.contractSkipped
    )
      return
    state.exchanges[index] = now
    changed = true
  })
  return changed
}

/**
 * An exchange arrived on the live stream of a proxy where a route has `openapi`: the dev server
 * checks it after its answer closed, so the stream's copy comes before its check. A moment after
 * the last exchange, the list is read once more and the checks put on the rows (once per burst
 * of calls, never on a proxy without `openapi`).
 *
 * @example
 * followCheck(state)
 */
export function followCheck(state: InspectorState): void {
  if (!state.checks) return
  clearTimeout(state.checkRefresh)
  state.checkRefresh = setTimeout(() => {
    state.checkRefresh = undefined
    void fetch(`${state.base}/exchanges`)
      .then((answer) => (answer.ok ? (answer.json() as Promise<View[]>) : []))
      .then(
        (fresh) => {
          if (takeChecks(state, fresh)) state.render()
        },
        () => undefined,
      )
  }, CHECK_REFRESH_MS)
}
