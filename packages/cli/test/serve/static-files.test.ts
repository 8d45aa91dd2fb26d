import { describe, expect, it } from 'vitest'
import { safeSegments } from '../../src/serve/static-files.js'

describe('safeSegments', () => {
  it.each([
    ['/', []],
    ['/index.html', ['index.html']],
    ['/a/b.js?x=1#h', ['a', 'b.js']],
    ['//a///b', ['a', 'b']],
    ['/caf%C3%A9.txt', ['café.txt']],
    ['/a%20b', ['a b']],
  ])('%s → %j', (target, segments) => {
    expect(safeSegments(target)).toEqual(segments)
  })

  it.each([
    '/../etc/passwd',
    '/a/../../etc/passwd',
    '/./index.html',
    '/%2e%2e/etc/passwd',
    '/%2E%2E/etc/passwd',
    '/.%2e/etc/passwd',
    '/..%2fetc%2fpasswd',
    '/a%2F..%2F..%2Fetc',
    '/..%5cetc',
    '/a\\..\\..\\etc',
    '/.env',
    '/.git/config',
    '/a/%2egit/config',
    '/a%00.js',
    '/%E0%A4%A',
    'http://evil.example/',
    '*',
  ])('refuses %s', (target) => {
    expect(safeSegments(target)).toBeUndefined()
  })
})
