import { describe, expect, it } from 'vitest'
import { findProxyConflicts } from '../src/proxy-conflicts.js'

describe('findProxyConflicts (server.proxy)', () => {
  it.each([
    ['a key under a route', ['/api'], { '/api/v1': 'http://x' }, [{ filter: '/api/v1', prefix: '/api' }]],
    ['a key above a route', ['/api/v1'], { '/api': 'http://x' }, [{ filter: '/api', prefix: '/api/v1' }]],
    ['a key that only shares letters', ['/api'], { '/api2': 'http://x' }, []],
    ['a key the same as the route', ['/api'], { '/api': 'http://x' }, [{ filter: '/api', prefix: '/api' }]],
    ['a glob', ['/api'], { '/api/**': 'http://x' }, [{ filter: '/api/**', prefix: '/api' }]],
    [
      "the array form's pathFilter",
      ['/api'],
      [{ pathFilter: ['/auth', '/api/v2', '!/api/v2/skip'], target: 'http://x' }],
      [{ filter: '/api/v2', prefix: '/api' }],
    ],
    ['a function filter', ['/api'], [{ pathFilter: () => true, target: 'http://x' }], []],
    ['no server.proxy', ['/api'], undefined, []],
  ])('%s', (_title, prefixes, proxy, expected) => {
    expect(findProxyConflicts(prefixes, proxy)).toEqual(expected)
  })
})
