import { describe, expect, it } from 'vitest'
import { describeAnswer, unmatchedCallsError } from '../src/unmatched-calls.js'

describe('unmatchedCallsError', () => {
  it('lists each call with the core explanation, then the fix', () => {
    const error = unmatchedCallsError(
      [
        {
          method: 'GET',
          url: 'http://app.test/api/users?page=2',
          status: 404,
          explanation: 'no recording matches\n',
        },
        {
          method: 'POST',
          url: 'http://app.test/api/users',
          status: 404,
          explanation: '{"differs":{"body":"name"}}',
          summary: 'api/POST-users.json: body name',
        },
      ],
      'replay',
    )
    expect(error.name).toBe('CorsDevProxyUnmatchedCalls')
    expect(error.message).toBe(
      [
        "[cors-dev-proxy] 2 calls of this test matched no recording (mode: 'replay'):",
        '',
        '  GET http://app.test/api/users?page=2 → 404',
        '    no recording matches',
        '',
        '  POST http://app.test/api/users → 404 (api/POST-users.json: body name)',
        '    {',
        '      "differs": {',
        '        "body": "name"',
        '      }',
        '    }',
        '',
        "Record them from the live backend with test.use({ corsDevProxy: { mode: 'missing' } }), or let such calls through with test.use({ corsDevProxy: { failOnUnmatched: false } }).",
      ].join('\n'),
    )
  })

  it("asks whether the backend is up under 'missing'", () => {
    const error = unmatchedCallsError(
      [{ method: 'GET', url: 'http://x/api', status: 404, explanation: '' }],
      'missing',
    )
    expect(error.message).toContain('1 call of this test')
    expect(error.message).toContain('Is the backend up?')
  })

  it('keeps a text that is not JSON as it is', () => {
    expect(describeAnswer('{not json', '  ')).toBe('  {not json')
  })
})
