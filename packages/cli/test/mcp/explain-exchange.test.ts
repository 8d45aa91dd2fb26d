import type { ExchangeView } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { explainExchange, isFailed } from '../../src/mcp/explain-exchange.js'

/*
 * The rules that name the cause of a recorded exchange, table-driven on views shaped as
 * `GET /__cors-dev-proxy/exchanges` answers them (mcp-tools.test.ts gets them from a real dev
 * server: a refused connection, a blocked answer, a fault, a call that did not fail).
 */

function view(fields: Partial<ExchangeView>): ExchangeView {
  return {
    id: 7,
    startedAt: '2026-01-01T00:00:00.000Z',
    method: 'GET',
    url: '/api/users',
    route: '/api',
    upstreamUrl: 'http://127.0.0.1:3000/users',
    clientProtocol: 'http/1.1',
    upstreamProtocol: 'http/1.1',
    status: 200,
    ttfb: 3,
    total: 4,
    requestHeaders: [],
    responseHeaders: [],
    requestBytes: 0,
    responseBytes: 10,
    hooks: [],
    cors: { outcome: 'same-origin', rule: 'no Origin header' },
    requestBody: undefined,
    responseBody: undefined,
    bodiesTruncated: false,
    aborted: false,
    replayOf: undefined,
    replayedFrom: undefined,
    mockedFrom: undefined,
    ...fields,
  }
}

describe('explainExchange', () => {
  it.each<[string, Partial<ExchangeView>, Record<string, unknown>]>([
    [
      'a 502 the proxy answered, its body not kept',
      { status: 502, ttfb: undefined },
      {
        kind: 'unreachable',
        cause: expect.stringContaining(
          'could not get an answer from http://127.0.0.1:3000/users (the body that says why was not kept',
        ),
      },
    ],
    [
      'a 504 the proxy answered, as JSON',
      {
        status: 504,
        ttfb: undefined,
        responseBody:
          '{"error":"Gateway Timeout","cause":"no response within 100 ms","hint":"raise the timeout"}',
      },
      {
        kind: 'timeout',
        cause: 'no response within 100 ms: raise the timeout',
        fix: expect.stringContaining('`timeout`'),
      },
    ],
    [
      'a 502 the target sent itself (its head came)',
      { status: 502, ttfb: 5, responseBody: 'upstream says no' },
      { kind: 'upstream', cause: 'http://127.0.0.1:3000/users answered 502 itself: upstream says no' },
    ],
    [
      "a 404 after the route's prefix was removed",
      { status: 404 },
      {
        kind: 'upstream',
        fix: "the proxy removed the prefix '/api' (the default pathRewrite): if the backend serves /api/users, set `pathRewrite: false` on the route",
      },
    ],
    [
      "replay: 'only' without a recording",
      {
        status: 404,
        ttfb: undefined,
        upstreamUrl: undefined,
        responseBody:
          "cors-dev-proxy: no recording matches GET /api/users (route '/api' has replay: 'only'). There is no recording for this route yet.",
      },
      { kind: 'no-recording', cause: expect.stringMatching(/^no recording matches GET \/api\/users/) },
    ],
    ['an answer that broke off', { aborted: true }, { kind: 'aborted', failed: true }],
    [
      'a preflight the browser refuses',
      {
        method: 'OPTIONS',
        cors: {
          outcome: 'preflight-blocked',
          rule: 'preflight answer fails: method',
          message: 'Method PUT is not allowed',
          fix: 'list PUT',
        },
      },
      { kind: 'cors', message: 'Method PUT is not allowed', fix: 'list PUT' },
    ],
    ['a 200', {}, { kind: 'ok', failed: false }],
  ])('%s', (_name, fields, expected) => {
    const explained = explainExchange(view(fields))
    expect(explained).toMatchObject(expected)
    expect(explained.failed).toBe(isFailed(view(fields)))
  })

  it('gives no pathRewrite hint for a 404 whose upstream path kept the prefix', () => {
    const explained = explainExchange(view({ status: 404, upstreamUrl: 'http://127.0.0.1:3000/api/users' }))
    expect(explained).toMatchObject({
      kind: 'upstream',
      cause: 'http://127.0.0.1:3000/api/users answered 404 itself',
    })
    expect(explained.fix).toBeUndefined()
  })

  it.each([
    ["a replay's 404 (the target down)", 'replay (target failed: connection refused)', 'GET-me.0123.json'],
    ["a replay's 404 (replay: 'only')", 'replay', 'GET-me.0123.json'],
    ["a mock's 404", "mocked by 'GET /me'", undefined],
  ])('explains %s, whose hop is not a URL', (_name, upstreamUrl, replayedFrom) => {
    const explained = explainExchange(view({ status: 404, upstreamUrl, ttfb: 1, replayedFrom }))
    expect(explained).toMatchObject({ kind: 'upstream', cause: `${upstreamUrl} answered 404 itself` })
    expect(explained.fix).toBeUndefined()
  })
})

describe('the explanation probe in list_exchanges', () => {
  it('is listed as ours, never as a failed call of the page', async () => {
    const { exchangeLine, summarizeExchange } = await import('../../src/mcp/exchange-text.js')
    const blocked = { cors: { outcome: 'blocked' as const, rule: 'no Access-Control-Allow-Origin' } }
    const page = view(blocked)
    const probe = view({ ...blocked, id: 8, ours: 'probe' })
    expect(isFailed(page)).toBe(true)
    expect(isFailed(probe)).toBe(false)
    expect(exchangeLine(summarizeExchange(page))).toBe(
      '#7 GET /api/users → http://127.0.0.1:3000/users 200 4 ms [CORS blocked] FAILED',
    )
    expect(exchangeLine(summarizeExchange(probe))).toBe(
      "#8 GET /api/users → http://127.0.0.1:3000/users 200 4 ms [CORS blocked] (ours: the overlay's explanation probe, not the page's call)",
    )
    expect(summarizeExchange(probe)).toMatchObject({ ours: 'probe', failed: false })
  })
})
