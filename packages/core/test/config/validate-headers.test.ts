import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { checkHeaders, mergeHeaders } from '../../src/config/validate-headers.js'

const at = "routes['/api'].headers"

describe('checkHeaders', () => {
  it('lowercases names, keeps values, later wins per name', () => {
    expect(checkHeaders({ 'X-Api-Key': 'a', Accept: 'b', 'x-api-key': 'c', 'x-empty': '' }, at)).toEqual([
      ['x-api-key', 'c'],
      ['accept', 'b'],
      ['x-empty', ''],
    ])
    expect(checkHeaders(undefined, at)).toBeUndefined()
  })

  it.each([
    [['a'], at, 'must be an object of header name'],
    ['x: y', at, 'must be an object of header name'],
    [{ 'x api': 'v' }, `${at}['x api']`, 'not a valid header name'],
    [{ ':authority': 'v' }, `${at}[':authority']`, 'not a valid header name'],
    [{ 'x-é': 'v' }, `${at}['x-é']`, 'not a valid header name'],
    [{ 'x-n': 1 }, `${at}['x-n']`, "got a number (1)\n  Fix it like this: { headers: { 'x-n': '1' } }"],
    [
      { 'x-o': Object.create(null) },
      `${at}['x-o']`,
      "got an object\n  Fix it like this: { headers: { 'x-o': 'dev' } }",
    ],
    [{ 'x-l': ['a\nb'] }, `${at}['x-l']`, "got an array\n  Fix it like this: { headers: { 'x-l': 'dev' } }"],
    [{ 'x-a': 'a\r\nx-injected: 1' }, `${at}['x-a']`, 'not allowed in a header value'],
    [{ 'x-a': 'a\0' }, `${at}['x-a']`, 'not allowed in a header value'],
    [{ Connection: 'close' }, `${at}['Connection']`, 'per-connection header'],
    [{ 'transfer-encoding': 'chunked' }, `${at}['transfer-encoding']`, 'per-connection header'],
    [{ 'content-length': '1' }, `${at}['content-length']`, 'per-connection header'],
    [{ expect: '100-continue' }, `${at}['expect']`, 'per-connection header'],
  ])('%j is refused', (value, option, problem) => {
    expectConfigError(() => checkHeaders(value, at), {
      code: 'INVALID_OPTION',
      option,
      contains: [problem, 'headers: {'],
    })
  })
})

describe('mergeHeaders', () => {
  it('lets the override win per name and freezes the result', () => {
    const merged = mergeHeaders(
      [
        ['a', '1'],
        ['b', '2'],
      ],
      [
        ['b', 'route'],
        ['c', '3'],
      ],
    )
    expect(merged).toEqual([
      ['a', '1'],
      ['b', 'route'],
      ['c', '3'],
    ])
    expect(Object.isFrozen(merged)).toBe(true)
    expect(Object.isFrozen(merged[0])).toBe(true)
  })
})
