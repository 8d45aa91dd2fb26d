import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckReport } from '../../packages/cli/src/check/run-check.js'
import { runBuiltCliHere } from '../../packages/cli/test/support/cli-process.js'
import { type BodyKind, SEQUENCE_CASES, type SequenceCall } from './sequence-cases.js'
import { asMadeBy } from './sequence-kit.js'
import { type SequenceServers, startSequenceServers } from './sequence-server.js'

/**
 * `cors-dev-proxy check` (the built CLI's `runCli`, in this process: a child process per case
 * spent most of a minute starting Node; check-agrees-with-chromium.test.ts runs the binary) on every one-call case of the
 * sequence table that it can express: redirects (each hop checked and preflighted), `--redirect`
 * modes, bodies and `--xhr`. Headless Chromium runs the same table in
 * test/browser/browser-sequences.test.ts; here the CLI must give the same verdict, in the same
 * words, and send the same requests. Cases of several calls (the preflight cache) are outside a
 * one-shot command: `createBrowserModel` runs them there.
 */

/** `--body-type` for each body kind; an untyped Blob has no flag (check always names a type). */
const BODY_TYPE: Readonly<Record<BodyKind, string | undefined>> = {
  'blob-json': 'application/json',
  'blob-text': 'text/plain',
  'blob-untyped': undefined,
  string: 'text',
  params: 'form',
  form: 'multipart',
  stream: undefined,
}

let servers: SequenceServers
let run = 0

beforeAll(async () => {
  servers = await startSequenceServers()
})

afterAll(async () => {
  await servers?.close()
})

function argsOf(prefix: string, call: SequenceCall, xhr: boolean): string[] | undefined {
  const args = ['check', servers.expand(prefix, call.url), '--origin', servers.origins.P, '--json']
  args.push('--method', call.method ?? 'GET')
  for (const [name, value] of Object.entries(call.headers ?? {})) args.push('--header', `${name}: ${value}`)
  if (call.credentials === true) args.push('--credentials')
  if (call.body !== undefined) {
    const type = BODY_TYPE[call.body]
    if (type === undefined) return undefined
    args.push('--body-type', type)
  }
  if (call.redirect !== undefined) args.push('--redirect', call.redirect)
  if (xhr) args.push('--xhr')
  // S and H have a self-signed certificate.
  if (call.url.startsWith('{S}') || call.url.startsWith('{H}')) args.push('--insecure')
  return args
}

/** What `check` has no flag for: fetch's mode, cache and duplex, another calling page, a URL with user:password. */
function expressible(call: SequenceCall): boolean {
  return (
    call.mode === undefined &&
    call.cache === undefined &&
    call.page === undefined &&
    call.userinfo === undefined &&
    call.noDuplex === undefined &&
    call.credentials !== 'omit' &&
    // A process argument cannot hold NUL.
    !Object.values(call.headers ?? {}).some((value) => value.includes('\0'))
  )
}

const CASES = SEQUENCE_CASES.filter(
  (testCase) => testCase.calls.length === 1 && expressible(testCase.calls[0]!),
).flatMap((testCase) =>
  [false, ...(testCase.fetchOnly === undefined ? [true] : [])].map((xhr) => ({
    name: `${testCase.name} (${xhr ? 'XMLHttpRequest' : 'fetch'})`,
    testCase,
    xhr,
  })),
)

describe('cors-dev-proxy check agrees with the sequence table', () => {
  it('has redirect cases to check', () => {
    expect(
      CASES.filter(({ testCase }) => testCase.name.startsWith('redirect:')).length,
    ).toBeGreaterThanOrEqual(10)
  })

  it.concurrent.each(CASES)('$name', async ({ testCase, xhr }) => {
    const prefix = `check-${++run}`
    servers.register(prefix, testCase.routes)
    const call = asMadeBy(testCase.calls[0]!, xhr ? 'XMLHttpRequest' : 'fetch')
    const args = argsOf(prefix, call, xhr)
    if (args === undefined) {
      // Only an untyped Blob and a stream lack a flag; say so rather than pass silently.
      expect(['blob-untyped', 'stream']).toContain(call.body)
      return
    }
    const result = await runBuiltCliHere(args)
    const expected = call.expected
    if ('thrown' in expected) {
      // What fetch or XMLHttpRequest throws on (a method or header that is not a token, a bad
      // value) is refused by check's own flag reading: a usage error, nothing sent.
      expect(result.code).toBe(2)
      expect(servers.seen(prefix)).toHaveLength(0)
      return
    }
    const report = JSON.parse(result.stdout) as CheckReport
    const initiator = xhr ? 'XMLHttpRequest' : 'fetch'
    if (expected.readable) {
      expect(report.verdict).toMatchObject({ outcome: 'readable' })
      if (expected.headers !== undefined) expect(report.verdict.readableHeaders).toEqual(expected.headers)
      expect(result.code).toBe(0)
    } else if ('network' in expected) {
      // `null`: Chromium prints nothing, and neither does check's verdict.
      expect(report.verdict).toEqual({
        outcome: 'failed',
        ...(expected.console === null ? {} : { message: servers.expand(prefix, expected.console) }),
        fix: expect.any(String),
      })
      expect(result.code).toBe(1)
    } else {
      let text = servers.expand(prefix, expected.text)
      if (xhr)
        text = text
          .replace(' Have the server send the header with a valid value.', '')
          .replace(
            "when the request's credentials mode is 'include'.",
            "when the request's credentials mode is 'include'. The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.",
          )
      const from =
        expected.from === undefined ? '' : `(redirected from '${servers.expand(prefix, expected.from)}') `
      expect(report.verdict.message).toBe(
        `Access to ${initiator} at '${servers.expand(prefix, expected.at)}' ${from}from origin '${servers.origins.P}' has been blocked by CORS policy: ${text}`,
      )
      expect(result.code).toBe(1)
    }
    // The same requests, in order, as Chromium sent them.
    const byOrigin = new Map(Object.entries(servers.origins).map(([name, origin]) => [origin, name]))
    const sent = report.exchanges.map((exchange) => {
      const url = new URL(exchange.url)
      const path = url.pathname.slice(`/${prefix}`.length) + url.search
      return `${exchange.method} ${byOrigin.get(url.origin)}${path} ${exchange.requestHeaders.origin ?? '-'}`
    })
    expect(sent).toEqual(call.sent.map((line) => servers.expand(prefix, line)))
    expect(servers.seen(prefix)).toHaveLength(call.sent.length)
  })
})
