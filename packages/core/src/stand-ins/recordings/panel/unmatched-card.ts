import { type UnmatchedNote, unmatchedHeadline, unmatchedRows } from './unmatched-lines.js'

/*
 * The overlay's card body for a call no recording matched under `replay: 'only'` (the page's own
 * 404 carried the note): what differs from the closest recording, part by part, its file, and the
 * fixes as configuration to paste, each with a copy button. Text only (`textContent`): the values
 * are the request's.
 */

/** A `<div>` of a class with a text. */
function unmatchedText(className: string, text: string): HTMLElement {
  const element = document.createElement('div')
  element.className = className
  element.textContent = text
  return element
}

/** A button that copies `text`, and says whether it could. */
function unmatchedCopy(text: string): HTMLButtonElement {
  const copy = document.createElement('button')
  copy.textContent = 'Copy the fix'
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        copy.textContent = 'Copied'
      },
      () => {
        copy.textContent = 'Select and copy the text above'
      },
    )
  })
  return copy
}

/**
 * The card's body: the headline, one line per difference (this call, then the recording), the
 * closest recording's file, and each fix.
 *
 * @example
 * details.append(unmatchedCardBody(note))
 */
export function unmatchedCardBody(note: UnmatchedNote): HTMLElement {
  const body = document.createElement('div')
  body.className = 'body unmatched'
  body.append(unmatchedText('message', unmatchedHeadline(note)))
  for (const row of unmatchedRows(note)) {
    body.append(unmatchedText('diff', `${row.part}: this call ${row.request}, the recording ${row.recorded}`))
  }
  if (note.closest !== null) body.append(unmatchedText('muted', `closest recording: ${note.closest}`))
  for (const fix of note.fixes) {
    body.append(unmatchedText('cause', fix.why), unmatchedText('fix', fix.config))
    const row = document.createElement('div')
    row.className = 'row'
    row.append(unmatchedCopy(fix.config))
    body.append(row)
  }
  return body
}
