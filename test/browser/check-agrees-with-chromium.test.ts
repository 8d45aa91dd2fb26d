import {
  type CheckCorsResult,
  checkCors,
  type RunningMockBackend,
  startMockBackend,
} from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckReport } from '../../packages/cli/src/check/run-check.js'
import { runBuiltCliHere, runCli } from '../../packages/cli/test/support/cli-process.js'
import { BROWSER_CORS_CASES, type BrowserCorsCase, ECHO_READABLE } from './cors-cases.js'

/**
 * `checkCors` (in this process) and `cors-dev-proxy check` (the built CLI: its binary for the
 * usage errors, its `runCli` in this process for one case of each shape) on
 * every case of the browser matrix they can send: the same calls, to the same mock backend, must
 * get the verdict headless Chromium gives them in test/browser/cors-verdicts.test.ts, in the same
 * words, with the same preflight and the same readable headers. The cases hold what Chromium
 * did; that test fails when Chromium stops doing it. A case with credentials 'omit' is sent as
 * 'same-origin' (check has no omit): for a cross-origin call the two are checked alike.
 */

const PAGE_ORIGIN = 'http://localhost:5173'
/** Child processes at once: the CLI's start-up is CPU work, and this machine has two cores. */
const CLI_CONCURRENCY = 4
let mock: RunningMockBackend
let caseNumber = 0

beforeAll(async () => {
  mock = await startMockBackend()
})

afterAll(async () => {
  await mock?.close()
})

/** At most `limit` calls of `task` running at once. */
function limited<T>(limit: number): (task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    running += 1
    try {
      return await task()
    } finally {
      running -= 1
      waiting.shift()?.()
    }
  }
}
const cliSlot = limited<Awaited<ReturnType<typeof runCli>>>(CLI_CONCURRENCY)

/** `{origin}` and `{ORIGIN}` of the table, made the page's origin. */
function withOrigin(text: string): string {
  return text.replaceAll('{origin}', PAGE_ORIGIN).replaceAll('{ORIGIN}', PAGE_ORIGIN.toUpperCase())
}

/** A URL on the mock, unique per run so the backend's log tells the runs apart. */
function caseUrl(testCase: BrowserCorsCase, runner: string): { url: string; marker: string } {
  caseNumber += 1
  const marker = `case=${runner}-${caseNumber}`
  return { url: `${mock.origin}${testCase.path}?${withOrigin(testCase.switches)}&${marker}`, marker }
}

/** The command line that makes the call the case's script makes. */
function checkArgs(testCase: BrowserCorsCase, url: string): string[] {
  const args = ['check', url, '--origin', PAGE_ORIGIN, '--method', testCase.method, '--json']
  const headers = testCase.headers ?? {}
  for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers))
    args.push('--header', `${name}: ${value}`)
  // The case's Content-Type header stays the Content-Type; --body-type only makes check send a body.
  if (testCase.body !== undefined) args.push('--body-type', 'text')
  if (testCase.credentials === 'include') args.push('--credentials')
  if (testCase.initiator === 'XMLHttpRequest') args.push('--xhr')
  return args
}

/** The exchanges Chromium's backend saw for the case: the preflight, then the request unless it never got there. */
function expectedKinds(testCase: BrowserCorsCase): string[] {
  const { expected } = testCase
  const failedPreflight = !expected.readable && 'stage' in expected && expected.stage === 'preflight'
  return [...(testCase.preflight ? ['preflight'] : []), ...(failedPreflight ? [] : ['request'])]
}

/** The accepted messages: one, or one of several when Chromium's choice cannot be promised. */
function acceptedMessages(
  testCase: BrowserCorsCase,
  url: string,
  text: string | readonly string[],
): string[] {
  const prefix = `Access to ${testCase.initiator} at '${url}' from origin '${PAGE_ORIGIN}' has been blocked by CORS policy: `
  return (typeof text === 'string' ? [text] : text).map((item) => `${prefix}${withOrigin(item)}`)
}

/** What the mock logged for a run: what reached the backend, the parser's refusals excepted. */
function seenKinds(marker: string): string[] {
  const seen = mock.log.filter((entry) => entry.path.endsWith(marker))
  return seen.map((entry) => (entry.preflight ? 'preflight' : 'request'))
}

function backendKinds(testCase: BrowserCorsCase): string[] {
  const kinds = expectedKinds(testCase)
  // Node's parser answers the refused method itself: the mock never logs that request.
  return testCase.refusedByParser ? kinds.filter((kind) => kind !== 'request') : kinds
}

/** The cases check can send; the others say why in `notSentByCheck`, and are listed as skipped. */
const SENT_BY_CHECK = BROWSER_CORS_CASES.filter((testCase) => testCase.notSentByCheck === undefined)
const NOT_SENT_BY_CHECK = BROWSER_CORS_CASES.filter((testCase) => testCase.notSentByCheck !== undefined)

/**
 * What a case asks of the binary beyond `checkCors`: its flags (method case, repeated headers,
 * body, credentials, `--xhr`) and the verdict's shape (readable, or the kind of text at which
 * stage). The cases of one shape differ only in values that `checkCors` above already checks
 * one by one.
 */
function cliShape(testCase: BrowserCorsCase): string {
  const { expected } = testCase
  const verdict = expected.readable
    ? `readable ${(expected.readHeaders ?? []).length > 0}`
    : 'stage' in expected
      ? `${expected.stage} ${(typeof expected.text === 'string' ? expected.text : expected.text.join()).replace(/'[^']*'/g, "''").slice(0, 60)}`
      : 'threw'
  return [
    testCase.initiator,
    testCase.credentials ?? 'same-origin',
    testCase.preflight,
    testCase.method === testCase.method.toUpperCase(),
    Array.isArray(testCase.headers),
    testCase.body !== undefined,
    testCase.refusedByParser === true,
    verdict,
  ].join('|')
}

/**
 * The cases the built CLI runs: the first of each {@link cliShape}. The rest go through
 * `checkCors`, the function `check` runs, above.
 */
const CLI_CASES = SENT_BY_CHECK.filter(
  (testCase, index) => SENT_BY_CHECK.findIndex((other) => cliShape(other) === cliShape(testCase)) === index,
)
const CLI_LEFT_OUT = SENT_BY_CHECK.filter((testCase) => !CLI_CASES.includes(testCase))

function requireSendable(testCase: BrowserCorsCase): Exclude<BrowserCorsCase['expected'], { threw: string }> {
  const { expected } = testCase
  if ('threw' in expected) throw new Error(`${testCase.name}: a case that throws needs notSentByCheck`)
  return expected
}

describe('checkCors agrees with headless Chromium', () => {
  it.concurrent.each(NOT_SENT_BY_CHECK)('$name: sends nothing, gives the script error', async (testCase) => {
    const { expected } = testCase
    if (!('threw' in expected))
      throw new Error(`${testCase.name}: only a throwing case is left to checkCors alone`)
    const { url, marker } = caseUrl(testCase, 'core')
    const result = await checkCors({
      url,
      origin: PAGE_ORIGIN,
      method: testCase.method,
      initiator: testCase.initiator,
    })
    expect(result).toMatchObject({ allowed: false, preflight: false, scriptError: expected.threw })
    expect(seenKinds(marker)).toEqual([])
  })

  it.concurrent.each(SENT_BY_CHECK)('$name', async (testCase) => {
    const expected = requireSendable(testCase)
    const { url, marker } = caseUrl(testCase, 'core')
    const result: CheckCorsResult = await checkCors({
      url,
      origin: PAGE_ORIGIN,
      method: testCase.method,
      headers: testCase.headers,
      credentials: testCase.credentials === 'include',
      body: testCase.body,
      initiator: testCase.initiator,
    })
    expect(result.networkError).toBeUndefined()
    expect(result.preflight).toBe(testCase.preflight)
    if (expected.readable) {
      expect(result).toMatchObject({ allowed: true })
      expect(result.readableHeaders).toEqual(expected.readHeaders ?? ECHO_READABLE)
    } else {
      expect(result).toMatchObject({ allowed: false, stage: expected.stage })
      expect(acceptedMessages(testCase, new URL(url).href, expected.text)).toContain(result.message)
    }
    expect(seenKinds(marker)).toEqual(backendKinds(testCase))
  })
})

describe('cors-dev-proxy check agrees with headless Chromium', () => {
  it.concurrent.each(NOT_SENT_BY_CHECK)(
    '$name: refused as a usage error naming the script error ($notSentByCheck)',
    async (testCase) => {
      const { url, marker } = caseUrl(testCase, 'cli')
      const result = await cliSlot(() => runCli(checkArgs(testCase, url)))
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('HTTP method is unsupported.')
      expect(seenKinds(marker)).toEqual([])
    },
  )

  it('runs one case of every shape, and the other cases run through checkCors above', () => {
    console.log(`the CLI runs ${CLI_CASES.length} of ${SENT_BY_CHECK.length} cases`)
    expect(CLI_CASES.length + CLI_LEFT_OUT.length).toBe(SENT_BY_CHECK.length)
    expect(new Set(CLI_CASES.map((testCase) => testCase.group)).size).toBe(
      new Set(SENT_BY_CHECK.map((c) => c.group)).size,
    )
  })

  it.concurrent.each(CLI_CASES)('$name', async (testCase) => {
    const expected = requireSendable(testCase)
    const { url, marker } = caseUrl(testCase, 'cli')
    // The built CLI's code, in this process: the binary itself runs the usage-error cases above.
    const result = await cliSlot(() => runBuiltCliHere(checkArgs(testCase, url)))
    const report = JSON.parse(result.stdout) as CheckReport
    expect(report.classification.kind).toBe(testCase.preflight ? 'preflight' : 'simple')
    expect(report.exchanges.map((exchange) => exchange.kind)).toEqual(expectedKinds(testCase))
    if (expected.readable) {
      expect(report.verdict).toEqual({
        outcome: 'readable',
        readableHeaders: expected.readHeaders ?? ECHO_READABLE,
      })
      expect(result.code).toBe(0)
    } else {
      expect(report.verdict).toMatchObject({ outcome: 'blocked', stage: expected.stage })
      expect(acceptedMessages(testCase, report.url, expected.text)).toContain(report.verdict.message)
      expect(result.code).toBe(1)
    }
    // The backend saw what Chromium's backend saw: the preflight, then the request unless it failed.
    expect(seenKinds(marker)).toEqual(backendKinds(testCase))
  })
})
