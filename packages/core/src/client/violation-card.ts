import type { FailedCall } from './call-types.js'
import { expectedVsActual, type ViolationEntry, violationWhere } from './violation-lines.js'

/*
 * The body of the overlay's card for a way this page's calls broke a route's OpenAPI document:
 * the message, where (request or response, the operation, the JSON pointer), what the document
 * expects against what came, and a link to the last exchange that did it in the inspector. Text
 * only: the values quoted came from the page's request or the backend's answer.
 */

/** A line of text with a class. */
function violationLine(className: string, text: string): HTMLElement {
  const element = document.createElement('div')
  element.className = className
  element.textContent = text
  return element
}

/** The page's call the card is about, when one of its calls fits the operation. */
function callOf(call: FailedCall): string | undefined {
  return call.url === '' ? undefined : `${call.method} ${call.url}`
}

/**
 * The card's one-line summary: the page's call, or the operation when none of its calls fits.
 *
 * @example
 * violationSummary(entry, card.failed) // 'OpenAPI GET http://localhost:5173/api/pets/1 · /name'
 */
export function violationSummary(entry: ViolationEntry, call: FailedCall): string {
  return `OpenAPI ${callOf(call) ?? entry.operation} · ${entry.pointer === '' ? entry.in : entry.pointer}`
}

/**
 * The card's body.
 *
 * @example
 * card.append(violationCardBody('/__cors-dev-proxy', entry, card.failed))
 */
export function violationCardBody(base: string, entry: ViolationEntry, call: FailedCall): HTMLElement {
  const body = document.createElement('div')
  body.className = 'body violation'
  body.append(violationLine('message', entry.message))
  const made = callOf(call)
  if (made !== undefined) body.append(violationLine('diff call', `call: ${made}`))
  body.append(violationLine('diff operation', `operation: ${entry.operation} (route '${entry.route}')`))
  body.append(violationLine('diff pointer', violationWhere(entry)))
  const versus = expectedVsActual(entry)
  if (versus !== undefined) body.append(violationLine('diff versus', versus))
  if (entry.lastExchange !== undefined) {
    const row = document.createElement('div')
    row.className = 'row'
    const link = document.createElement('a')
    link.href = `${base}/#exchange=${entry.lastExchange}`
    link.target = '_blank'
    link.textContent = `open exchange #${entry.lastExchange} in the inspector`
    row.append(link)
    body.append(row)
  }
  return body
}
