import type { ReplayMode } from './replay-config.js'

/**
 * The calls of a test that no recording matched, and the error that fails the test with them.
 * The core marks such an answer with `x-cors-dev-proxy-unmatched` whatever its body says
 * (a 404 whose body names what differs from the closest recording); the body is shown as it
 * came, JSON indented, so the message says what the core says.
 */

/** The header the core sets on an answer to a call no recording matches. */
export const UNMATCHED_HEADER = 'x-cors-dev-proxy-unmatched'

/** A call the page made that no recording matched (the page got the core's answer: 404 under `replay: 'only'`). */
export interface UnmatchedCall {
  readonly method: string
  /** The URL the page called. */
  readonly url: string
  /** The status the page got. */
  readonly status: number
  /** The core's explanation: the answer's body (what differs from the closest recording). */
  readonly explanation: string
  /** The core's marker header, when it says more than that the call is unmatched: the differences in one line. */
  readonly summary?: string
}

/**
 * The body of an unmatched answer as the message shows it: JSON indented, text as it is, and
 * each line indented by `indent`.
 *
 * @example
 * describeAnswer('{"differs":"query"}', '    ') // '    {\n      "differs": "query"\n    }'
 */
export function describeAnswer(body: string, indent: string): string {
  let text = body.trim()
  try {
    text = JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    // Not JSON: the core's text, as it is.
  }
  return text
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n')
}

/**
 * The error a test fails with when some of its calls matched no recording: each call with the
 * core's explanation, then how to record them or let them through.
 *
 * @example
 * throw unmatchedCallsError([{ method: 'GET', url: 'http://app.test/api/users?page=2', status: 404, explanation: '...' }], 'replay')
 */
export function unmatchedCallsError(calls: readonly UnmatchedCall[], mode: ReplayMode): Error {
  const count = calls.length === 1 ? '1 call' : `${calls.length} calls`
  const listed = calls
    .map(
      (call) =>
        `  ${call.method} ${call.url} → ${call.status}${call.summary === undefined ? '' : ` (${call.summary})`}\n${describeAnswer(call.explanation, '    ')}`,
    )
    .join('\n\n')
  const fix =
    mode === 'replay'
      ? "Record them from the live backend with test.use({ corsDevProxy: { mode: 'missing' } }), or let such calls through with test.use({ corsDevProxy: { failOnUnmatched: false } })."
      : 'Is the backend up? Let such calls through with test.use({ corsDevProxy: { failOnUnmatched: false } }).'
  const error = new Error(
    `[cors-dev-proxy] ${count} of this test matched no recording (mode: '${mode}'):\n\n${listed}\n\n${fix}`,
  )
  error.name = 'CorsDevProxyUnmatchedCalls'
  return error
}
