import { el } from '../../../client/inspector-dom.js'
import { type UnmatchedNote, unmatchedHeadline, unmatchedRows } from './unmatched-lines.js'

/*
 * The recordings' section of an exchange's detail in the inspector page: "No recording matched",
 * for the 404 `replay: 'only'` answers a request no recording matches (and, in a line, the 504 of
 * `replay: 'fallback'` when the target is down too). A table of the parts that
 * differ (this call, the closest recording), the recording's file and the fixes. Text only.
 */

/** What the section needs of an exchange view (client/inspector-state.ts). */
export interface UnmatchedView {
  readonly unmatched?: string
  readonly unmatchedDiff?: UnmatchedNote
}

/** The differences as a table: part, this call, the recording. */
function unmatchedTable(note: UnmatchedNote): HTMLElement {
  const table = el('table', undefined, 'headers unmatched-diff')
  const head = el('tr')
  head.append(el('th', 'part'), el('th', 'this call'), el('th', 'closest recording'))
  table.append(head)
  for (const row of unmatchedRows(note)) {
    const tr = el('tr')
    tr.append(el('th', row.part), el('td', row.request), el('td', row.recorded))
    table.append(tr)
  }
  return table
}

/**
 * The section, or `undefined` for an exchange a recording (or the target) answered.
 *
 * @example
 * const section = unmatchedSection(view)
 * if (section !== undefined) detail.append(section)
 */
export function unmatchedSection(view: UnmatchedView): HTMLElement | undefined {
  if (view.unmatched === undefined) return undefined
  const section = el('section', undefined, 'unmatched')
  section.append(el('h3', 'No recording matched'))
  const note = view.unmatchedDiff
  // An answer without the data: `replay: 'fallback'`'s 504 (marked `1`), or its one line is all there is.
  if (note === undefined) {
    const fallback =
      "the target did not answer, and no recording matches this request (replay: 'fallback'): the answer's body names the closest recording"
    section.append(el('p', view.unmatched === '1' ? fallback : view.unmatched))
    return section
  }
  section.append(el('p', unmatchedHeadline(note)))
  if (note.differences.length > 0) section.append(unmatchedTable(note))
  if (note.closest !== null) section.append(el('p', `closest recording: ${note.closest}`, 'muted closest'))
  for (const fix of note.fixes) section.append(el('p', fix.why), el('pre', fix.config))
  return section
}
