import { describe, expect, it } from 'vitest'
import { readableResponseHeaders } from '../../src/browser/response-header-rules.js'

const ANSWER = {
  'cache-control': 'no-store',
  'content-language': 'en',
  'content-length': '2',
  'content-type': 'application/json',
  expires: '0',
  'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT',
  pragma: 'no-cache',
  date: 'Mon, 01 Jan 2024 00:00:00 GMT',
  'x-id': '1',
  'set-cookie': ['a=1', 'b=2'],
  'access-control-allow-origin': '*',
}
const SAFELISTED = [
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
]

describe('readableResponseHeaders', () => {
  it('lists only the safelisted names present without Access-Control-Expose-Headers', () => {
    expect(readableResponseHeaders(ANSWER)).toEqual(SAFELISTED)
    expect(readableResponseHeaders({ 'content-type': 'text/plain', date: 'x' })).toEqual(['content-type'])
  })

  it('adds the exposed names present, in any case, ignoring names the answer lacks', () => {
    const headers = { ...ANSWER, 'access-control-expose-headers': 'X-ID , date,x-missing,, set-cookie' }
    expect(readableResponseHeaders(headers)).toEqual(
      [...SAFELISTED, 'access-control-expose-headers', 'date', 'x-id']
        .filter((name) => name !== 'access-control-expose-headers')
        .sort(),
    )
  })

  it.each([
    ['omit', true],
    ['same-origin', true],
    ['include', false],
  ] as const)('exposes everything but Set-Cookie with * when credentials are %s: %s', (credentials, all) => {
    const headers = { ...ANSWER, 'access-control-expose-headers': '*' }
    const names = readableResponseHeaders(headers, { credentials })
    expect(names).not.toContain('set-cookie')
    if (all) {
      expect(names).toEqual(
        [
          ...SAFELISTED,
          'access-control-allow-origin',
          'access-control-expose-headers',
          'date',
          'x-id',
        ].sort(),
      )
    } else {
      expect(names).toEqual(SAFELISTED)
    }
  })

  it('reads every header but Set-Cookie and Set-Cookie2 on a same-origin answer', () => {
    const names = readableResponseHeaders({ ...ANSWER, 'set-cookie2': 'x' }, { sameOrigin: true })
    expect(names).toEqual(
      Object.keys(ANSWER)
        .filter((name) => name !== 'set-cookie')
        .sort(),
    )
  })

  it('takes header lines, lowercasing their names', () => {
    expect(
      readableResponseHeaders([
        ['X-A', '1'],
        ['Access-Control-Expose-Headers', 'x-a'],
        ['Content-Type', 'text/plain'],
      ]),
    ).toEqual(['content-type', 'x-a'])
  })
})
