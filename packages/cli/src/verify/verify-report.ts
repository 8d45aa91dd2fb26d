import { relative } from 'node:path'
import type { VerifyOutcome, VerifyResult } from './verify-route.js'

/*
 * The drift check's report: one line per request that drifted (`GET /users/1: body.email
 * missing; body.age number → string`), per request that got no answer or was skipped for a
 * secret, per file that is not a recording, then one count line. Read in ten seconds; `--json`
 * gives the same as data.
 */

/** The exit codes: 0 nothing drifted, 1 drift, 2 a request unanswered or a file unreadable (the check is incomplete). */
export function verifyExitCode(result: VerifyResult): 0 | 1 | 2 {
  const { outcomes } = result
  if (outcomes.some((outcome) => outcome.kind === 'failed' || outcome.kind === 'unreadable')) return 2
  return outcomes.some((outcome) => outcome.kind === 'drifted' && !outcome.updated) ? 1 : 0
}

type Of<Kind extends VerifyOutcome['kind']> = Extract<VerifyOutcome, { kind: Kind }>

function ofKind<Kind extends VerifyOutcome['kind']>(result: VerifyResult, kind: Kind): Of<Kind>[] {
  return result.outcomes.filter((outcome): outcome is Of<Kind> => outcome.kind === kind)
}

const SKIP_TEXT: Readonly<Record<Of<'skipped'>['reason'], string>> = {
  'side-effects': 'has side effects',
  secret: 'its answers need a secret (a password, Basic credentials) that is not on disk',
  'masked-query': 'its query holds a masked secret, which is not on disk',
  body: 'a GET with a body, which is not resent',
  'no-answer': 'no answer recorded',
}

/** The count line: how many drifted of those sent, how many got no answer, and what was skipped. */
function countLine(result: VerifyResult, where: string): string {
  const drifted = ofKind(result, 'drifted').length
  const failed = ofKind(result, 'failed').length
  const sent = drifted + ofKind(result, 'unchanged').length + failed
  const skipped = ofKind(result, 'skipped')
  const bySideEffects = skipped.filter((one) => one.reason === 'side-effects')
  const methods = [...new Set(bySideEffects.map((one) => one.method))].sort()
  const requests = (count: number) => `${count} ${count === 1 ? 'request' : 'requests'}`
  const head =
    sent === 0
      ? `nothing to verify: no GET or HEAD recording to send ${where}`
      : drifted === 0
        ? `no drift in ${requests(sent)} ${where}`
        : `drift in ${drifted} of ${requests(sent)} ${where}`
  const tail = [
    failed > 0 ? `${failed} unanswered` : '',
    bySideEffects.length > 0
      ? `skipped ${bySideEffects.length} with side effects (${methods.join(', ')}), never sent`
      : '',
    skipped.length > bySideEffects.length
      ? `skipped ${skipped.length - bySideEffects.length} more (above)`
      : '',
    ofKind(result, 'unreadable').length > 0 ? `${ofKind(result, 'unreadable').length} not a recording` : '',
  ]
  return [head, ...tail].filter(Boolean).join('; ')
}

/** One line for an outcome the reader needs to see, `undefined` for an unchanged request or one skipped for its method. */
function outcomeLine(outcome: VerifyOutcome, cwd: string): string | undefined {
  if (outcome.kind === 'drifted') {
    const changes = outcome.changes.map((change) => change.text).join('; ')
    return `${outcome.method} ${outcome.path}: ${changes}${outcome.updated ? ' (recording updated)' : ''}`
  }
  if (outcome.kind === 'failed') return `${outcome.method} ${outcome.path}: no answer (${outcome.error})`
  if (outcome.kind === 'unreadable') {
    return `${relative(cwd, outcome.file)}: not a recording (unreadable JSON or another format), skipped`
  }
  if (outcome.kind === 'skipped' && outcome.reason !== 'side-effects') {
    return `${outcome.method} ${outcome.path}: skipped, ${SKIP_TEXT[outcome.reason]}`
  }
  return undefined
}

/** Drift first, then what got no answer or could not be read, then what was skipped. */
const LINE_ORDER: readonly VerifyOutcome['kind'][] = ['drifted', 'failed', 'unreadable', 'skipped']

/**
 * The report as text: a line per drifted request (`GET /users/1: body.email missing; body.age
 * number → string`), per request unanswered or skipped for a secret, per file that is not a
 * recording, then the count line, which names the folder and the target.
 *
 * @example
 * io.out(verifyReportText(result, cwd, target))
 */
export function verifyReportText(result: VerifyResult, cwd: string, target: URL): string {
  const lines = LINE_ORDER.flatMap((kind) =>
    ofKind(result, kind).flatMap((outcome) => outcomeLine(outcome, cwd) ?? []),
  )
  lines.push(countLine(result, `(${relative(cwd, result.folder) || '.'} against ${target.href})`))
  const updated = ofKind(result, 'drifted').filter((one) => one.updated).length
  if (updated > 0)
    lines.push(`updated ${updated} ${updated === 1 ? 'recording' : 'recordings'} with the live answers`)
  return `${lines.join('\n')}\n`
}

/**
 * The report as JSON (`--json`): the outcomes by kind, each with its file relative to `cwd`,
 * and the exit code.
 *
 * @example
 * io.out(verifyReportJson(result, cwd, '/api', target))
 */
export function verifyReportJson(result: VerifyResult, cwd: string, route: string, target: URL): string {
  const file = <T extends { file: string }>(outcome: T) => ({ ...outcome, file: relative(cwd, outcome.file) })
  const data = {
    route,
    target: target.href,
    folder: relative(cwd, result.folder) || '.',
    exitCode: verifyExitCode(result),
    drifted: ofKind(result, 'drifted').map(file),
    unchanged: ofKind(result, 'unchanged').map(file),
    failed: ofKind(result, 'failed').map(file),
    skipped: ofKind(result, 'skipped').map(file),
    unreadable: ofKind(result, 'unreadable').map(file),
  }
  return `${JSON.stringify(data, null, 2)}\n`
}
