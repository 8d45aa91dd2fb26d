import { createServer, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { collectBody, listen } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import {
  createRequestMatcher,
  isOriginForm,
  matchRoute,
  prefixMatches,
} from '../../src/pipeline/match-route.js'
import { forwardRoute } from '../support/resolved.js'

const silent = { log: 'silent' } as const
const NOT_FOUND = 'Not Found: no cors-dev-proxy route matches this path\n'

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
      expect(forwardRoute(matchRoute(resolved, '/a/b/c/d')?.route).target.port).toBe('3')
      expect(forwardRoute(matchRoute(resolved, '/a/b/cd')?.route).target.port).toBe('2')
      expect(forwardRoute(matchRoute(resolved, '/a/bc')?.route).target.port).toBe('1')
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

describe('matching over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  /** A target that answers `<name> <url>` and records the URLs it received. */
  async function namedTarget(name: string) {
    const seen: string[] = []
    const target = await listen(
      createServer((req, res) => {
        seen.push(req.url ?? '')
        res.end(`${name} ${req.url}`)
      }),
    )
    cleanup.push(target.close)
    return { url: target.url, seen }
  }

  /** Sends the request target exactly as written (a `URL` would resolve its dot-segments first). */
  function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent: false }, async (res) => {
        resolve({ status: res.statusCode ?? 0, body: (await collectBody(res)).toString() })
      })
      req.once('error', reject)
      req.end()
    })
  }

  it.each([
    ['shorter prefix first', false],
    ['longer prefix first', true],
  ])(
    'routes by segment, after dot-segments, longest prefix winning (%s), query kept',
    async (_name, longFirst) => {
      const api = await namedTarget('api')
      const auth = await namedTarget('auth')
      const routes = longFirst
        ? { '/api/auth': auth.url, '/api': api.url }
        : { '/api': api.url, '/api/auth': auth.url }
      const proxy = await serveProxy(routes, { log: 'silent' })
      cleanup.push(proxy.close)
      const cases: Array<[path: string, status: number, body: string]> = [
        ['/api/users?x=1&y=/../z', 200, 'api /users?x=1&y=/../z'],
        ['/api', 200, 'api /'],
        ['/api?q=1', 200, 'api /?q=1'],
        ['/api/auth/login?next=/home', 200, 'auth /login?next=/home'],
        ['/api/authx', 200, 'api /authx'],
        ['/api/./auth/me', 200, 'auth /me'],
        ['/api/auth/../users', 200, 'api /users'],
        ['/api/%2e%2e/api/auth/me', 200, 'auth /me'],
        ['/api2', 404, NOT_FOUND],
        ['/api/../admin', 404, NOT_FOUND],
        ['/api/%2E%2E/admin', 404, NOT_FOUND],
        ['/api/auth/../../admin', 404, NOT_FOUND],
        ['/api\\..\\admin', 404, NOT_FOUND],
      ]
      for (const [path, status, body] of cases) {
        expect(await rawGet(proxy.port, path), path).toEqual({ status, body })
      }
      // The paths that climbed out of their prefix reached no target at all.
      expect(api.seen).toEqual(['/users?x=1&y=/../z', '/', '/?q=1', '/authx', '/users'])
      expect(auth.seen).toEqual(['/login?next=/home', '/me', '/me'])
    },
  )
})

describe('createRequestMatcher', () => {
  const { routes } = resolveOptions({ '/api': 'http://localhost:3000', '/api/v2': 'http://localhost:3001' })

  it('matches a request once, however many ask, and again when its URL changes', () => {
    const matchOf = createRequestMatcher(routes)
    const req = { url: '/api/v2/users?x=1' }
    const first = matchOf(req)
    expect(first).toEqual(matchRoute(routes, req.url))
    expect(matchOf(req)).toBe(first)
    // The last asker gets what the earlier one left.
    expect(matchOf.withoutMemo(req)).toBe(first)
    req.url = '/api/users'
    expect(matchOf(req)?.route.prefix).toBe('/api')
    expect(matchOf({})).toBeUndefined()
  })

  it('matches without remembering for the last asker when nobody asked before', () => {
    const matchOf = createRequestMatcher(routes)
    const req = { url: '/api/v2/items' }
    const last = matchOf.withoutMemo(req)
    expect(last).toEqual(matchRoute(routes, req.url))
    // Nothing was stored: a later asker matches afresh.
    expect(matchOf(req)).not.toBe(last)
    expect(matchOf(req)).toEqual(last)
    expect(matchOf.withoutMemo({ url: 'http://evil.example/' })).toBeUndefined()
  })
})
