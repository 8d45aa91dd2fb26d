import type { RouteOptions } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { createLocationRewrite } from '../../../core/src/forward/location-rewrite.js'
import { type LocationRule, planRoutes, routeLabel } from '../../src/export/route-plan.js'

const BROWSER = 'http://localhost:8080'

function planOf(prefix: string, route: RouteOptions) {
  const { routes } = planRoutes(resolveOptions({ [prefix]: route }).routes)
  const plan = routes[0]
  if (plan === undefined) throw new Error('no plan')
  return plan
}

/**
 * The rules as nginx applies them (first match), in JavaScript: `(?i:...)` becomes the `i` flag
 * on the whole pattern (Node 20 has no inline flags), which only widens what the tests' lowercase
 * paths could match.
 */
function applyRules(rules: readonly LocationRule[], value: string): string {
  for (const rule of rules) {
    const match = new RegExp(rule.pattern.replaceAll('(?i:', '(?:'), 'i').exec(value)
    if (match) return `${rule.absolute ? BROWSER : ''}${rule.path}${match[1] ?? ''}`
  }
  return value
}

describe('planRoutes', () => {
  it.each<[string, string, RouteOptions, { strip: boolean; base: string }]>([
    ['the default: prefix removed', '/api', { target: 'http://127.0.0.1:3000' }, { strip: true, base: '' }],
    ['a target base path', '/api', { target: 'http://127.0.0.1:3000/v1/' }, { strip: true, base: '/v1' }],
    [
      'pathRewrite: false',
      '/api',
      { target: 'http://127.0.0.1:3000', pathRewrite: false },
      { strip: false, base: '' },
    ],
    ['the root route', '/', { target: 'http://127.0.0.1:3000/v1' }, { strip: false, base: '/v1' }],
    [
      'a RegExp map (not exported)',
      '/api',
      { target: 'http://h:1', pathRewrite: { '^/api': '/v2' } },
      { strip: false, base: '' },
    ],
    [
      "proxy.conf.json's map that removes the prefix (the default, written out)",
      '/api',
      { target: 'http://h:1', pathRewrite: { '^/api': '' } },
      { strip: true, base: '' },
    ],
  ])('%s', (_title, prefix, route, path) => {
    expect(planOf(prefix, route).path).toEqual(path)
  })

  it.each<[string, RouteOptions, { host: string | undefined; sameOriginAs: string | undefined }]>([
    [
      'changeOrigin (default)',
      { target: 'http://localhost:3000' },
      { host: 'localhost:3000', sameOriginAs: 'http://localhost:3000' },
    ],
    [
      'a default port',
      { target: 'https://api.example' },
      { host: 'api.example', sameOriginAs: 'https://api.example' },
    ],
    [
      'changeOrigin: false',
      { target: 'http://localhost:3000', changeOrigin: false },
      { host: undefined, sameOriginAs: undefined },
    ],
    [
      'rewriteOrigin: false',
      { target: 'http://localhost:3000', rewriteOrigin: false },
      { host: 'localhost:3000', sameOriginAs: undefined },
    ],
  ])('Host and Origin: %s', (_title, route, expected) => {
    expect(planOf('/api', route)).toMatchObject(expected)
  })

  it.each([
    [
      'http://127.0.0.1:3000',
      { name: 'cdp_127_0_0_1_3000', tls: false, address: '127.0.0.1:3000', serverName: '127.0.0.1' },
    ],
    [
      'https://api.example',
      { name: 'cdp_https_api_example_443', tls: true, address: 'api.example:443', serverName: 'api.example' },
    ],
    ['ws://[::1]:3000', { name: 'cdp__1_3000', tls: false, address: '[::1]:3000', serverName: '::1' }],
  ])('upstream of %s', (target, upstream) => {
    expect(planOf('/api', { target }).upstream).toEqual(upstream)
  })

  it('gives an https target with secure: false an upstream of its own, as the dev proxy gives it a pool', () => {
    const { routes } = planRoutes(
      resolveOptions({
        '/a': 'https://localhost:8443',
        '/b': { target: 'https://localhost:8443', secure: false },
      }).routes,
    )
    expect(routes.map((plan) => plan.upstream.name)).toEqual([
      'cdp_https_localhost_8443',
      'cdp_https_insecure_localhost_8443',
    ])
  })

  it('ids follow the resolved order, and a mock route is skipped with a note', () => {
    const { routes, skipped } = planRoutes(
      resolveOptions({ '/a': 'http://h:1', '/a/b': 'http://h:1', '/m': { mock: true } }).routes,
    )
    expect(routes.map((plan) => [plan.id, plan.route.prefix])).toEqual([
      ['r1', '/a/b'],
      ['r2', '/a'],
    ])
    expect(skipped).toEqual([expect.stringContaining("routes['/m'] answers from the built-in mock backend")])
  })

  it('skips, with a note, a route without a target (router or bypass only) and a Unix socket target', () => {
    const { routes, skipped } = planRoutes(
      resolveOptions({
        '/r': { router: () => 'http://h:1' },
        '/b': { bypass: () => '/index.html' },
        '/u': { target: { socketPath: '/tmp/api.sock' } },
      }).routes,
    )
    expect(routes).toEqual([])
    expect(skipped).toEqual([
      expect.stringContaining("routes['/b'] has no target (its bypass decides"),
      expect.stringContaining("routes['/r'] has no target (its router decides"),
      expect.stringContaining("routes['/u'] forwards to the Unix socket /tmp/api.sock"),
    ])
  })

  it('has no timeout when the route has none, as the dev proxy has no deadline then', () => {
    expect(planOf('/api', { target: 'http://h:1' }).timeout).toBeUndefined()
  })

  it('rounds a fractional timeout up to whole milliseconds', () => {
    expect(planOf('/api', { target: 'http://h:1', timeout: 1500.2 }).timeout).toBe(1501)
  })

  it.each<[string, RouteOptions, string[]]>([
    ['a function pathRewrite', { pathRewrite: (path) => path }, ['.pathRewrite is a function']],
    ['a RegExp map', { pathRewrite: { '^/api': '/v2' } }, ['.pathRewrite is a RegExp map']],
    ['router', { router: () => undefined }, ['.router picks a target']],
    ['pathFilter', { pathFilter: '/api/x' }, ['.pathFilter: not exported']],
    ['bypass', { bypass: () => undefined }, ['.bypass answers in the dev server']],
    ['hooks', { on: { proxyReq: () => undefined } }, ['.on.proxyReq run in Node']],
    ['configure', { configure: (proxy) => proxy.on('proxyRes', () => undefined) }, ['.configure']],
    ['transformResponse', { transformResponse: (body) => body }, ['.transformResponse: not exported']],
    ['jsonp', { jsonp: true }, ['.jsonp: not exported']],
    [
      'an origin function',
      { cors: { origin: (_origin, callback) => callback(null, true) } },
      ['.cors.origin is a function'],
    ],
    ['nothing of that', { cors: true, ws: true, headers: { a: 'b' } }, []],
  ])('notes what is not exported: %s', (_title, options, notes) => {
    const plan = planOf('/api', { target: 'http://h:1', ...options })
    expect(plan.notes).toHaveLength(notes.length)
    notes.forEach((note, index) => {
      expect(plan.notes[index]).toContain(note)
    })
  })

  it('keeps cookie rewrites in the dev proxy’s order: exact values first, then the fallback', () => {
    const plan = planOf('/api', {
      target: 'http://h:1',
      cookieDomainRewrite: { '*': '', 'old.example': 'new.example' },
      cookiePathRewrite: '/api/',
    })
    expect(plan.cookieRules).toEqual([
      { attribute: 'Domain', match: 'old.example', replacement: 'new.example' },
      { attribute: 'Domain', match: undefined, replacement: '' },
      { attribute: 'Path', match: undefined, replacement: '/api/' },
    ])
    expect(planOf('/api', { target: 'http://h:1', cookieDomainRewrite: false }).cookieRules).toEqual([])
  })

  it('quotes the prefix in labels as the core does', () => {
    expect(routeLabel("/it's")).toBe("routes['/it\\'s']")
  })
})

describe('location rules rewrite as the dev proxy does', () => {
  const values = [
    'http://127.0.0.1:3000/posts?page=2#top',
    'http://127.0.0.1:3000/',
    'http://127.0.0.1:3000',
    'http://127.0.0.1:3000?x=1',
    'HTTP://127.0.0.1:3000/x',
    '//127.0.0.1:3000/x',
    'http://127.0.0.1:3000/v1',
    'http://127.0.0.1:3000/v1/',
    'http://127.0.0.1:3000/v1/x?y=1',
    'http://127.0.0.1:3000/v1x',
    'http://127.0.0.1:3000//x',
    '/posts',
    '/',
    '/?q=1',
    '/v1',
    '/v1?q=1',
    '/v1/deep/x',
    '/v1x',
    '//other.example/x',
    'posts/2',
    '../up',
    'https://auth.example/login',
    'http://127.0.0.1:3001/x',
    'https://127.0.0.1:3000/x',
  ]
  const routes: Array<[string, string, RouteOptions]> = [
    ['the default', '/api', { target: 'http://127.0.0.1:3000' }],
    ['a base path', '/api', { target: 'http://127.0.0.1:3000/v1' }],
    ['pathRewrite: false', '/api', { target: 'http://127.0.0.1:3000', pathRewrite: false }],
    [
      'pathRewrite: false and a base path',
      '/api',
      { target: 'http://127.0.0.1:3000/v1', pathRewrite: false },
    ],
    ['the root route', '/', { target: 'http://127.0.0.1:3000' }],
    ['a default port', '/api', { target: 'http://localhost' }],
  ]
  it.each(routes)('%s', (_title, prefix, route) => {
    const plan = planOf(prefix, route)
    const dev = createLocationRewrite(plan.route)
    if (dev.kind !== 'rewrite') throw new Error(`expected a rewrite, got ${dev.kind}`)
    const target = prefix === '/api' && route.target === 'http://localhost' ? 'http://localhost' : undefined
    for (const raw of values) {
      const value =
        target === undefined
          ? raw
          : raw.replace('127.0.0.1:3000', 'localhost').replace('localhost:80', 'localhost')
      expect([value, applyRules(plan.locationRules, value)]).toEqual([value, dev.rewrite(value, BROWSER)])
    }
  })

  it.each<[string, RouteOptions]>([
    ['rewriteLocation: false', { rewriteLocation: false }],
    ['a RegExp map (the dev proxy cannot undo it either)', { pathRewrite: { '^/api': '/x' } }],
  ])('has none with %s', (_title, options) => {
    expect(planOf('/api', { target: 'http://127.0.0.1:3000', ...options }).locationRules).toEqual([])
  })
})
