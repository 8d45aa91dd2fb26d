import { describe, expect, it } from 'vitest'
import { normalizePath, splitPathAndQuery } from '../../src/http/normalize-path.js'

describe('normalizePath', () => {
  // RFC 3986 section 5.2.4 and its examples, plus the WHATWG percent-encoded dot forms.
  it.each([
    ['/', '/'],
    ['/api', '/api'],
    ['/api/', '/api/'],
    ['/api/users', '/api/users'],
    ['/api/./users', '/api/users'],
    ['/api/../admin', '/admin'],
    ['/api/x/../y', '/api/y'],
    ['/a/b/c/./../../g', '/a/g'],
    ['/mid/content=5/../6', '/mid/6'],
    ['/api/..', '/'],
    ['/api/x/..', '/api/'],
    ['/api/.', '/api/'],
    ['/..', '/'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/api/%2e%2e/admin', '/admin'],
    ['/api/%2E%2E/admin', '/admin'],
    ['/api/.%2e/admin', '/admin'],
    ['/api/%2e./admin', '/admin'],
    ['/api/%2e/users', '/api/users'],
    ['/api/%2E/users', '/api/users'],
    ['/api\\..\\admin', '/admin'],
    ['/api\\users', '/api/users'],
    ['/a//../b', '/a/b'],
    ['/api//x', '/api//x'],
    ['/api/x%2f..%2fadmin', '/api/x%2f..%2fadmin'],
    ['/api/x%5c..%5cadmin', '/api/x%5c..%5cadmin'],
    ['/api/...', '/api/...'],
    ['/api/.hidden', '/api/.hidden'],
    ['/api/file.json', '/api/file.json'],
    ['/api/%2e%2e%2e', '/api/%2e%2e%2e'],
    ['/api/%252e%252e/admin', '/api/%252e%252e/admin'],
    // Path parameters, which Java servers strip before resolving dot-segments.
    ['/api/..;/admin', '/admin'],
    ['/api/..;jsessionid=1/admin', '/admin'],
    ['/api/%2e%2e;x/admin', '/admin'],
    ['/api/.;x/users', '/api/users'],
    ['/api/x;y/users', '/api/x;y/users'],
    ['/api;/x', '/api;/x'],
  ])('%s → %s', (input, expected) => {
    expect(normalizePath(input)).toBe(expected)
  })

  it('returns the same string when nothing needs normalizing', () => {
    const path = '/api/users/42'
    expect(normalizePath(path)).toBe(path)
  })
})

describe('splitPathAndQuery', () => {
  it.each([
    ['/api', '/api', ''],
    ['/api?', '/api', '?'],
    ['/api?q=1', '/api', '?q=1'],
    ['/api/x?a=/../b?c', '/api/x', '?a=/../b?c'],
  ])('%s', (input, path, query) => {
    expect(splitPathAndQuery(input)).toEqual([path, query])
  })
})
