import { type RunningMockBackend, startMockBackend } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckReport } from '../../packages/cli/src/check/run-check.js'
import { runCli } from '../../packages/cli/test/support/cli-process.js'
import { BROWSER_CORS_CASES, type BrowserCorsCase } from './cors-cases.js'

/**
 * `cors-dev-proxy check` (the built CLI, in a child process) on every case of the browser matrix:
 * the same calls, to the same mock backend, must get the verdict headless Chromium gives them in
 * test/browser/cors-verdicts.test.ts, in the same words, with the same preflight. The cases hold
 * what Chromium printed; that test fails when Chromium stops printing it.
 */

const PAGE_ORIGIN = 'http://localhost:5173'
let mock: RunningMockBackend
let caseNumber = 0

beforeAll(async () => {
  mock = await startMockBackend()
})

afterAll(async () => {
  await mock?.close()
})

/** The command line that makes the call the case's script makes. */
function checkArgs(testCase: BrowserCorsCase, url: string): string[] {
  const args = ['check', url, '--origin', PAGE_ORIGIN, '--method', testCase.method, '--json']
  const headers = testCase.headers ?? {}
  for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers))
    args.push('--header', `${name}: ${value}`)
  // The case's Content-Type header stays the Content-Type; --body-type only makes check send a body.
  if (testCase.body !== undefined) args.push('--body-type', 'text')
  if (testCase.credentials) args.push('--credentials')
  if (testCase.initiator === 'XMLHttpRequest') args.push('--xhr')
  return args
}

/** The cases `check` can send; the others say why in `notSentByCheck`, and are listed as skipped. */
const SENT_BY_CHECK = BROWSER_CORS_CASES.filter((testCase) => testCase.notSentByCheck === undefined)
const NOT_SENT_BY_CHECK = BROWSER_CORS_CASES.filter((testCase) => testCase.notSentByCheck !== undefined)

describe('cors-dev-proxy check agrees with headless Chromium', () => {
  it.skip.each(NOT_SENT_BY_CHECK)('$name (not sent by check: $notSentByCheck)', () => {})

  it.concurrent.each(SENT_BY_CHECK)('$name', async (testCase) => {
    caseNumber += 1
    const marker = `case=check-${caseNumber}`
    const url = `${mock.origin}${testCase.path}?${testCase.switches}&${marker}`
    const result = await runCli(checkArgs(testCase, url))
    const report = JSON.parse(result.stdout) as CheckReport
    const { expected } = testCase
    if ('threw' in expected) throw new Error(`${testCase.name}: a case that throws needs notSentByCheck`)
    expect(report.classification.kind).toBe(testCase.preflight ? 'preflight' : 'simple')
    const kinds = [
      ...(testCase.preflight ? ['preflight'] : []),
      ...(!expected.readable && expected.stage === 'preflight' ? [] : ['request']),
    ]
    expect(report.exchanges.map((exchange) => exchange.kind)).toEqual(kinds)
    if (expected.readable) {
      expect(report.verdict).toEqual({ outcome: 'readable' })
      expect(result.code).toBe(0)
    } else {
      const prefix = `Access to ${testCase.initiator} at '${url}' from origin '${PAGE_ORIGIN}' has been blocked by CORS policy: `
      const texts = typeof expected.text === 'string' ? [expected.text] : expected.text
      expect(report.verdict).toMatchObject({ outcome: 'blocked', stage: expected.stage })
      expect(texts.map((text) => `${prefix}${text}`)).toContain(report.verdict.message)
      expect(result.code).toBe(1)
    }
    // The backend saw what Chromium's backend saw: the preflight, then the request unless it failed.
    const seen = mock.log.filter((entry) => entry.path.endsWith(marker))
    expect(seen.map((entry) => (entry.preflight ? 'preflight' : 'request'))).toEqual(kinds)
  })
})
