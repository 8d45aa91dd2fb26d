import { describe, expect, it } from 'vitest'
import { RouterAnswerError } from '../../src/config/resolve-router.js'
import { copyRouteOptions, headersForRequest } from '../../src/forward/request-options.js'
import type { HeaderEntry } from '../../src/http/header-list.js'

const OPTION = "routes['/api'].router"
/** The route as written, and its resolved headers: a shared default `x-shared`, the route's own two. */
const source = Object.freeze({ target: 'http://h', headers: Object.freeze({ 'X-Key': 'k', 'x-drop': 'd' }) })
const resolved: readonly HeaderEntry[] = Object.freeze([
  ['x-shared', 's'],
  ['x-key', 'k'],
  ['x-drop', 'd'],
])

describe('copyRouteOptions', () => {
  it('copies the route and its headers, so changes stay on the copy', () => {
    const copy = copyRouteOptions(source)
    copy.headers['x-new'] = '1'
    copy.target = 'http://other'
    expect(copy).not.toBe(source)
    expect(source).toEqual({ target: 'http://h', headers: { 'X-Key': 'k', 'x-drop': 'd' } })
    expect(copyRouteOptions({ target: 'http://h' }).headers).toEqual({})
  })
})

describe('headersForRequest', () => {
  const after = (change: (headers: Record<string, unknown>) => void) => {
    const copy = copyRouteOptions(source)
    change(copy.headers)
    return headersForRequest(resolved, source, copy, OPTION)
  }

  it('gives the route’s own list when nothing changed (no allocation)', () => {
    expect(headersForRequest(resolved, source, copyRouteOptions(source), OPTION)).toBe(resolved)
  })

  it.each<[string, (headers: Record<string, unknown>) => void, HeaderEntry[]]>([
    [
      'a header added',
      (h) => {
        h['X-Tenant'] = 'b'
      },
      [
        ['x-shared', 's'],
        ['x-key', 'k'],
        ['x-drop', 'd'],
        ['x-tenant', 'b'],
      ],
    ],
    [
      'one changed and one deleted',
      (h) => {
        h['X-Key'] = 'other'
        delete h['x-drop']
      },
      [
        ['x-shared', 's'],
        ['x-key', 'other'],
      ],
    ],
    [
      'a shared default overridden',
      (h) => {
        h['x-shared'] = 'mine'
      },
      [
        ['x-shared', 'mine'],
        ['x-key', 'k'],
        ['x-drop', 'd'],
      ],
    ],
  ])('%s', (_name, change, expected) => {
    expect(after(change)).toEqual(expected)
    // The route's own list is never changed.
    expect(resolved).toHaveLength(3)
  })

  it('takes a replaced headers object as the route’s headers for the request', () => {
    const copy = copyRouteOptions(source)
    copy.headers = { 'x-only': '1' }
    expect(headersForRequest(resolved, source, copy, OPTION)).toEqual([
      ['x-shared', 's'],
      ['x-only', '1'],
    ])
  })

  it.each([
    ['a value with CR/LF', { 'x-bad': 'a\r\nx-injected: 1' }, "set options.headers['x-bad'] contains"],
    [
      'a per-connection header',
      { connection: 'close' },
      "set options.headers['connection'] is a per-connection",
    ],
    ['a value that is not a string', { 'x-n': 42 }, "set options.headers['x-n'] must be a string"],
  ])('refuses %s with a RouterAnswerError naming the router', (_name, headers, text) => {
    const copy = copyRouteOptions(source)
    Object.assign(copy.headers, headers)
    const attempt = () => headersForRequest(resolved, source, copy, OPTION)
    expect(attempt).toThrow(RouterAnswerError)
    expect(attempt).toThrow(`${OPTION} ${text}`)
  })
})
