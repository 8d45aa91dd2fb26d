import { describe, expect, it } from 'vitest'
import { findProxyConflicts } from '../src/proxy-conflicts.js'

describe('findProxyConflicts', () => {
  // [Vite proxy key, cors-dev-proxy prefix, overlap?] — Vite matches `url.startsWith(key)`
  // (a RegExp when the key starts with ^); cors-dev-proxy matches whole segments.
  it.each<[context: string, prefix: string, overlaps: boolean]>([
    ['/api', '/api', true],
    ['/api/v1', '/api', true],
    ['/api?x', '/api', true],
    ['/ap', '/api', true],
    ['/', '/api', true],
    ['/api2', '/api', false],
    ['/apix/y', '/api', false],
    ['/auth', '/api', false],
    ['/x', '/', true],
    ['^/api/.*', '/api', true],
    ['^/api$', '/api', true],
    ['^/(auth|login)', '/api', false],
    ['^/api(', '/api', false],
    ['api', '/api', false],
  ])('server.proxy[%j] and route %j overlap: %s', (context, prefix, overlaps) => {
    expect(findProxyConflicts([prefix], { [context]: 'http://localhost:9' })).toEqual(
      overlaps ? [{ context, prefix }] : [],
    )
  })

  it('lists every pair and nothing without a proxy', () => {
    expect(
      findProxyConflicts(['/api', '/auth'], { '/api': 'x', '/auth/login': 'y', '/legacy': 'z' }),
    ).toEqual([
      { context: '/api', prefix: '/api' },
      { context: '/auth/login', prefix: '/auth' },
    ])
    expect(findProxyConflicts(['/api'], undefined)).toEqual([])
  })
})
