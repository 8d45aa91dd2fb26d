import { describe, expect, it } from 'vitest'
import { parseHeaderListValues } from '../../src/browser/header-list-values.js'

/** Each row measured in Chromium 156 (test/browser/sequence-cases-header-lists.ts). */
const ROWS: readonly (readonly [string | undefined, string[] | null])[] = [
  [undefined, []],
  ['', []],
  [',', []],
  [' PUT ', ['PUT']],
  ['PUT,', ['PUT']],
  [',PUT', ['PUT']],
  ['PUT,,GET', ['PUT', 'GET']],
  ['PUT,\tGET', ['PUT', 'GET']],
  ['PUT, ', ['PUT']],
  ['PUT, "GET"', null],
  ['"PUT"', null],
  ['PUT GET', null],
  ['PUT;q=1', null],
  ['PUT/1', null],
  ['PU\u00e9T', null],
]

describe('parseHeaderListValues', () => {
  it.each(ROWS)('%j → %j', (value, expected) => {
    expect(parseHeaderListValues(value)).toEqual(expected)
  })
})
