import { describe, expect, it } from 'vitest'
import { isOriginForm, matchRoute, prefixMatches } from '../src/match-route.js'
import { resolveOptions } from '../src/resolve-options.js'

const silent = { log: 'silent' } as const

describe('isOriginForm', () => {
  it.each([
    ['/', true],
    ['/api/users?x=1', true],
    ['http://evil.example/api', false],
    ['https://127.0.0.1:3000/', false],
    ['localhost:443', false],
    ['*', false],
    ['', false],
    ['api/users', false],
  ])('%s → %s', (rawUrl, expected) => {
    expect(isOriginForm(rawUrl)).toBe(expected)
  })
})

describe('prefixMatches', () => {
  it.each([
    ['/api', '/api', true],
    ['/api', '/api/', true],
    ['/api', '/api/x', true],
    ['/api', '/api2', false],
    ['/api', '/apix/y', false],
    ['/api', '/ap', false],
    ['/api', '/API', false],
    ['/api/v1', '/api/v1/users', true],
    ['/api/v1', '/api/v10', false],
    ['/', '/anything', true],
    ['/', '/', true],
  ])('%s covers %s: %s', (prefix, path, expected) => {
    expect(prefixMatches(prefix, path)).toBe(expected)
  })
})

describe('matchRoute', () => {
  const { routes } = resolveOptions(
    {
      '/api': 'http://127.0.0.1:3000',
      '/api/auth': 'http://127.0.0.1:4000',
      '/static': 'http://127.0.0.1:5000',
    },
    silent,
  )

  it.each([
    ['/api', '/api', '/api'],
    ['/api/', '/api', '/api/'],
    ['/api/x', '/api', '/api/x'],
    ['/api?q', '/api', '/api?q'],
    ['/api/users?x=1&y=/../z', '/api', '/api/users?x=1&y=/../z'],
    ['/api/auth/login', '/api/auth', '/api/auth/login'],
    ['/api/authx', '/api', '/api/authx'],
    ['/api/./auth/login', '/api/auth', '/api/auth/login'],
    ['/api/auth/../users', '/api', '/api/users'],
    ['/static/../api/x', '/api', '/api/x'],
    ['/api/%2e%2e/static/a.js', '/static', '/static/a.js'],
    ['/api\\auth\\x', '/api/auth', '/api/auth/x'],
  ])('%s → route %s, path %s', (rawUrl, prefix, path) => {
    const match = matchRoute(routes, rawUrl)
    expect(match?.route.prefix).toBe(prefix)
    expect(match?.path).toBe(path)
  })

  it.each([
    '/api2',
    '/apix/y',
    '/API/x',
    '/',
    '/other',
    '/api/../admin',
    '/api/%2e%2e/admin',
    '/api/%2E%2E/admin',
    '/api\\..\\admin',
    '/api/x/../../admin',
    '/api%2fx',
    'http://127.0.0.1:3000/api/x',
    '127.0.0.1:3000',
    '*',
  ])('%s matches no route', (rawUrl) => {
    expect(matchRoute(routes, rawUrl)).toBeUndefined()
  })

  it('keeps encoded slashes as data', () => {
    expect(matchRoute(routes, '/api/a%2F..%2F..%2Fadmin')).toMatchObject({ path: '/api/a%2F..%2F..%2Fadmin' })
  })

  it('picks the longest prefix whatever the key order', () => {
    const configs = [
      { '/a': 'http://127.0.0.1:1', '/a/b': 'http://127.0.0.1:2', '/a/b/c': 'http://127.0.0.1:3' },
      { '/a/b/c': 'http://127.0.0.1:3', '/a': 'http://127.0.0.1:1', '/a/b': 'http://127.0.0.1:2' },
      { '/a/b': 'http://127.0.0.1:2', '/a/b/c': 'http://127.0.0.1:3', '/a': 'http://127.0.0.1:1' },
    ]
    for (const config of configs) {
      const resolved = resolveOptions(config, silent).routes
      expect(matchRoute(resolved, '/a/b/c/d')?.route.target?.port).toBe('3')
      expect(matchRoute(resolved, '/a/b/cd')?.route.target?.port).toBe('2')
      expect(matchRoute(resolved, '/a/bc')?.route.target?.port).toBe('1')
    }
  })

  it('lets the root route catch everything the others do not', () => {
    const resolved = resolveOptions(
      { '/': 'http://127.0.0.1:1', '/api': 'http://127.0.0.1:2' },
      silent,
    ).routes
    expect(matchRoute(resolved, '/api/x')?.route.prefix).toBe('/api')
    expect(matchRoute(resolved, '/api2')?.route.prefix).toBe('/')
    expect(matchRoute(resolved, '/api/../admin')).toMatchObject({ route: { prefix: '/' }, path: '/admin' })
    expect(matchRoute(resolved, '/')?.route.prefix).toBe('/')
    expect(matchRoute(resolved, 'http://127.0.0.1:2/api')).toBeUndefined()
  })
})
