import { describe, expect, it } from 'vitest'
import { shouldMockMissing } from '../../src/contract/should-mock-missing.js'

describe('shouldMockMissing', () => {
  it.each([
    [['200'], 'unreachable', true],
    [['200', '404'], 'unreachable', true],
    [['200'], 404, true],
    [['200'], 501, true],
    [['200', 'default'], 404, true],
    [['200', '404'], 404, false],
    [['200', '4XX'], 404, false],
    [['200', '4xx'], 404, false],
    [['200', '501'], 501, false],
    [['200', '5XX'], 501, false],
    [['200', '4XX'], 501, true],
    [['200', '5XX'], 404, true],
    [['200'], 200, false],
    [['200'], 500, false],
    [['200'], 503, false],
    [['200'], 400, false],
    [[], 404, true],
  ] as const)('declared %j, the target answers %s: %s', (declared, upstream, expected) => {
    expect(shouldMockMissing(declared, upstream)).toBe(expected)
  })
})
