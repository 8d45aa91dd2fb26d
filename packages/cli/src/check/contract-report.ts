import type { Contract } from '@cors-dev-proxy/core/adapter'
import pc from 'picocolors'
import type { RecordingsCheck, RecordingViolation } from './check-recordings.js'

/*
 * What `check --openapi` prints: first a summary a person reads at a glance (the document, how
 * many exchanges in how many files, how many violations), then one line per violation,
 * `file: METHOD /path → operation, request|response pointer: message`, then what was not
 * checked. `--json` prints the same facts as one object.
 */

/** What the document check found, for the report. */
export interface DocumentFacts {
  /** The document as given on the command line. */
  readonly document: string
  readonly contract: Contract
}

/** A route checked: its prefix, its target and its folder (relative to the working directory). */
export interface CheckedRoute {
  readonly prefix: string
  readonly target: string
  readonly folder: string
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

function documentLine({ document, contract }: DocumentFacts): string {
  return `${pc.bold('check --openapi')} ${document} (OpenAPI ${contract.version}, ${plural(contract.operations.length, 'operation')})`
}

/**
 * The report of a document checked alone: it loads, every `$ref` resolves and every schema
 * compiles, so it can check exchanges.
 *
 * @example
 * io.out(formatDocumentReport({ document: 'openapi.yaml', contract }))
 */
export function formatDocumentReport(facts: DocumentFacts): string {
  const lines = [
    documentLine(facts),
    `${pc.green('usable')}: every $ref resolves and every schema compiles; give --recordings DIR to check recorded exchanges against it`,
  ]
  if (facts.contract.operations.length === 0)
    lines.push(
      pc.yellow('note: the document has no operations (no paths): every exchange would be a violation'),
    )
  return `${lines.join('\n')}\n`
}

function pointerText(violation: RecordingViolation): string {
  return violation.pointer === '' ? 'body' : violation.pointer
}

/**
 * One violation's line: `file: METHOD /path → operation, side pointer: message`.
 *
 * @example
 * violationLine(v) // "cors-dev-proxy/recordings/api/GET-pets-7.1a2b.json: GET /api/pets/7 → GET /pets/{petId}, response /name: must have required property 'name'"
 */
export function violationLine(violation: RecordingViolation): string {
  const answers =
    violation.answers === undefined
      ? ''
      : pc.dim(` (answer${violation.answers.length > 1 ? 's' : ''} ${violation.answers.join(', ')})`)
  return `${violation.file}: ${violation.method} ${violation.path} → ${violation.operation}, ${violation.in} ${pointerText(violation)}: ${violation.message}${answers}`
}

/**
 * The report of a recordings folder checked against the document.
 *
 * @example
 * io.out(formatRecordingsReport(facts, routes, result))
 */
export function formatRecordingsReport(
  facts: DocumentFacts,
  routes: readonly CheckedRoute[],
  result: RecordingsCheck,
): string {
  const count = result.violations.length
  const verdict = count === 0 ? pc.green('no violations') : pc.red(plural(count, 'violation'))
  const lines = [
    documentLine(facts),
    `${plural(result.exchanges, 'exchange')} checked in ${plural(result.files, 'file')}: ${verdict}`,
    ...routes.map((route) =>
      pc.dim(`  route ${route.prefix} → ${route.target}, recordings in ${route.folder}`),
    ),
  ]
  if (result.maskedValues > 0) {
    lines.push(
      pc.dim(
        `  ${plural(result.maskedValues, 'masked value')} not checked (the recording holds [masked], not what was sent)`,
      ),
    )
  }
  if (result.unmatched > 0 && result.unmatched === result.files - result.unreadable.length) {
    lines.push(
      pc.yellow(
        "  no recorded request reached an operation: the backend path is the route's target path and the path after its rewrite, under the base path of the document's servers (e.g. --route /api=http://127.0.0.1:3000/v1)",
      ),
    )
  }
  if (count > 0) lines.push('', ...result.violations.map(violationLine))
  if (result.notChecked.length > 0) {
    lines.push(
      '',
      pc.bold('Not checked:'),
      ...result.notChecked.map(({ file, reason }) => `${file}: ${reason}`),
    )
  }
  if (result.unreadable.length > 0) {
    lines.push(
      '',
      pc.red('Not recordings (unreadable, or edited into something else):'),
      ...result.unreadable,
    )
  }
  return `${lines.join('\n')}\n`
}

/**
 * The exit code: 2 when a file is not a recording, 1 with violations, else 0.
 *
 * @example
 * return recordingsExitCode(result)
 */
export function recordingsExitCode(result: RecordingsCheck): 0 | 1 | 2 {
  if (result.unreadable.length > 0) return 2
  return result.violations.length > 0 ? 1 : 0
}
