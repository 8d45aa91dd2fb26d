import type { AnswerContent } from './answer-content.js'
import { structureChanges, valueChanges } from './structure-diff.js'

/** One way a live answer differs from the recorded one, as the report prints it. */
export interface AnswerChange {
  /** `status` (its class, or its value with `--values`), `content-type`, or one of the body's changes. */
  readonly kind: 'status' | 'content-type' | 'missing' | 'type' | 'added' | 'value'
  /** `status`, `content-type`, or where in the body: `body.items[].id`. */
  readonly path: string
  /** `status 200 → 404`, `body.age number → string`. */
  readonly text: string
}

/**
 * How `live` differs from `recorded`: the status class (200 → 204 is no drift, 200 → 404 is), the
 * media type, then the JSON structure; with `values`, the exact status and every value too.
 * After a changed status class or media type the bodies are not compared: they are different
 * answers, and the first line says so.
 *
 * @example
 * answerChanges(recordedContent(answer), liveContent(live), false) // [{ kind: 'missing', text: 'body.email missing', … }]
 */
export function answerChanges(recorded: AnswerContent, live: AnswerContent, values: boolean): AnswerChange[] {
  const status = `status ${recorded.status} → ${live.status}`
  if (Math.floor(recorded.status / 100) !== Math.floor(live.status / 100)) {
    return [{ kind: 'status', path: 'status', text: status }]
  }
  const changes: AnswerChange[] = []
  if (values && recorded.status !== live.status) changes.push({ kind: 'value', path: 'status', text: status })
  if (recorded.type !== live.type) {
    const text = `content-type ${recorded.type ?? 'none'} → ${live.type ?? 'none'}`
    return [...changes, { kind: 'content-type', path: 'content-type', text }]
  }
  if (recorded.json !== undefined && live.json !== undefined) {
    changes.push(...structureChanges(recorded.json.value, live.json.value))
    if (values) changes.push(...valueChanges(recorded.json.value, live.json.value))
  } else if (recorded.json !== undefined) {
    changes.push({ kind: 'type', path: 'body', text: 'body is no longer JSON' })
  } else if (live.json !== undefined && recorded.text !== undefined) {
    changes.push({ kind: 'type', path: 'body', text: 'body is JSON now' })
  } else if (values && recorded.text !== live.text) {
    changes.push({ kind: 'value', path: 'body', text: 'body text differs' })
  }
  return changes
}
