import { describe, expect, it } from 'vitest'
import {
  readUnmatchedHeader,
  type UnmatchedNote,
  unmatchedHeadline,
  unmatchedPart,
  unmatchedRows,
} from '../../../src/stand-ins/recordings/panel/unmatched-lines.js'

/*
 * The words the overlay's card and the inspector's "No recording matched" section show for a
 * request no recording matched (browser code, pure: run here without a page).
 */

const note = (differences: UnmatchedNote['differences'], more = 0): UnmatchedNote => ({
  route: '/api',
  closest: 'cors-dev-proxy/recordings/api/GET-items.0123456789abcdef.json',
  differences,
  more,
  fixes: [],
})

describe('unmatched lines', () => {
  it.each([
    [{ part: 'method' }, 'method'],
    [{ part: 'path' }, 'path'],
    [{ part: 'query', name: 'page' }, 'query key page'],
    [{ part: 'body', name: 'tags.color' }, 'body field tags.color'],
    [{ part: 'body' }, 'body'],
    [{ part: 'header', name: 'x-tenant' }, 'header x-tenant'],
  ])('names %j as %j', (difference, words) => {
    expect(unmatchedPart(difference)).toBe(words)
  })

  it('gives a row per difference, (none) for a side that lacks it, and one for those left out', () => {
    expect(
      unmatchedRows(
        note(
          [
            { part: 'query', name: '_t', request: '1' },
            { part: 'method', recorded: 'GET', request: 'PUT' },
          ],
          2,
        ),
      ),
    ).toEqual([
      { part: 'query key _t', request: '1', recorded: '(none)' },
      { part: 'method', request: 'PUT', recorded: 'GET' },
      { part: '2 more', request: '…', recorded: '…' },
    ])
  })

  it.each([
    [
      note([{ part: 'query', name: 'page', recorded: '2', request: '3' }]),
      "no recording matched under replay: 'only' (route '/api'): query key page differs from the closest recording",
    ],
    [
      note(
        [{ part: 'method' }, { part: 'path' }, { part: 'query', name: 'a' }, { part: 'query', name: 'b' }],
        1,
      ),
      "no recording matched under replay: 'only' (route '/api'): method, path, query key a and 2 more differ from the closest recording",
    ],
    [
      { ...note([]), closest: null },
      "no recording matched under replay: 'only' (route '/api'): the route has no recording yet",
    ],
    [
      note([]),
      "no recording matched under replay: 'only' (route '/api'): it differs from the closest recording in nothing the key shows (a secret, or an edited file)",
    ],
  ])('headline %#', (given, line) => {
    expect(unmatchedHeadline(given)).toBe(line)
  })

  it('reads a header note, its HTML kept as the text it is', () => {
    const hostile = '<img src=x onerror="alert(1)">'
    const value = JSON.stringify({ ...note([{ part: 'query', name: 'q', request: hostile }]), more: 0 })
    expect(unmatchedRows(readUnmatchedHeader(value) as UnmatchedNote)[0]?.request).toBe(hostile)
  })

  it.each([
    null,
    undefined,
    '',
    'null',
    '[]',
    '{"route":"/api","closest":null,"differences":[{"part":1}],"fixes":[]}',
  ])('reads %j as no note', (value) => {
    expect(readUnmatchedHeader(value)).toBeUndefined()
  })
})
