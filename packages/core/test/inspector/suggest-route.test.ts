import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { type CallInitiator, suggestRoute, writtenRoute } from '../../src/inspector/suggest-route.js'

const routes = (config: Record<string, unknown>) => resolveOptions(config as never).routes

describe('suggestRoute', () => {
  it.each([
    [
      { '/other': { mock: true } },
      'http://localhost:3000/items?page=2',
      "'/api': 'http://localhost:3000'",
      '/api/items?page=2',
      false,
    ],
    [
      { '/other': { mock: true } },
      'http://localhost:3000/',
      "'/api': 'http://localhost:3000'",
      '/api',
      false,
    ],
    [
      { '/other': { mock: true } },
      'http://localhost:3000/api/items',
      "'/api': { target: 'http://localhost:3000', pathRewrite: false }",
      '/api/items',
      false,
    ],
    [
      { '/api': 'http://localhost:4000' },
      'http://localhost:3000/items',
      "'/api2': 'http://localhost:3000'",
      '/api2/items',
      false,
    ],
    [
      { '/api': 'http://localhost:3000' },
      'http://localhost:3000/items',
      "'/api': 'http://localhost:3000'",
      '/api/items',
      true,
    ],
    [
      { '/v1': 'http://localhost:3000/base' },
      'http://localhost:3000/base/items',
      "'/v1': 'http://localhost:3000/base'",
      '/v1/items',
      true,
    ],
    [
      { '/v1': 'http://localhost:3000/base' },
      'http://localhost:3000/other',
      "'/api': 'http://localhost:3000'",
      '/api/other',
      false,
    ],
    [
      { '/other': { mock: true } },
      'ws://localhost:3001/live',
      "'/socket': 'ws://localhost:3001'",
      '/socket/live',
      false,
    ],
  ])('%j, %s → %s %s', (config, url, route, path, existing) => {
    expect(suggestRoute(new URL(url), routes(config))).toEqual({ route, path, existing })
  })

  // The scheme family of the route fits the initiator; the route is printed as written.
  it.each<[Record<string, unknown>, string, CallInitiator, string, string, boolean]>([
    // A fetch is never pointed at a ws:// route (nor is it printed as http://).
    [
      { '/live': 'ws://localhost:3000' },
      'http://localhost:3000/items',
      'fetch',
      "'/api': 'http://localhost:3000'",
      '/api/items',
      false,
    ],
    [
      { '/live': 'ws://localhost:3000', '/rest': 'http://localhost:3000' },
      'http://localhost:3000/items',
      'XMLHttpRequest',
      "'/rest': 'http://localhost:3000'",
      '/rest/items',
      true,
    ],
    [
      { '/live': { target: 'wss://localhost:3000' } },
      'https://localhost:3000/events',
      'EventSource',
      "'/api': 'https://localhost:3000'",
      '/api/events',
      false,
    ],
    // A WebSocket uses a route that takes WebSockets, printed with the scheme written.
    [
      { '/rest': 'http://localhost:3000', '/live': 'ws://localhost:3000' },
      'ws://localhost:3000/feed',
      'WebSocket',
      "'/live': 'ws://localhost:3000'",
      '/live/feed',
      true,
    ],
    [
      { '/rest': { target: 'http://localhost:3000', ws: true } },
      'ws://localhost:3000/feed',
      'WebSocket',
      "'/rest': { target: 'http://localhost:3000', ws: true }",
      '/rest/feed',
      true,
    ],
    [
      { '/rest': 'http://localhost:3000' },
      'ws://localhost:3000/feed',
      'WebSocket',
      "'/socket': 'ws://localhost:3000'",
      '/socket/feed',
      false,
    ],
    [
      { '/live': { target: 'ws://localhost:3000', ws: false } },
      'wss://localhost:3000/feed',
      'WebSocket',
      "'/socket': 'wss://localhost:3000'",
      '/socket/feed',
      false,
    ],
    // Every loopback name is one host: the route exists under another name.
    [
      { '/api': 'http://localhost:3000' },
      'http://127.0.0.1:3000/items',
      'fetch',
      "'/api': 'http://localhost:3000'",
      '/api/items',
      true,
    ],
    [
      { '/api': 'http://127.0.0.1:3000/' },
      'http://[::1]:3000/items',
      'fetch',
      "'/api': 'http://127.0.0.1:3000/'",
      '/api/items',
      true,
    ],
    [
      { '/api': 'http://[::1]:3000' },
      'http://localhost:3000/items?q=1',
      'fetch',
      "'/api': 'http://[::1]:3000'",
      '/api/items?q=1',
      true,
    ],
    [
      { '/api': { target: 'http://LocalHost:3000', changeOrigin: false } },
      'http://127.0.0.1:3000/items',
      'fetch',
      "'/api': { target: 'http://LocalHost:3000', changeOrigin: false }",
      '/api/items',
      true,
    ],
    // ...but not another port, another scheme or another host.
    [
      { '/api': 'http://localhost:3001' },
      'http://127.0.0.1:3000/items',
      'fetch',
      "'/api2': 'http://127.0.0.1:3000'",
      '/api2/items',
      false,
    ],
    [
      { '/api': 'https://localhost:3000' },
      'http://127.0.0.1:3000/items',
      'fetch',
      "'/api2': 'http://127.0.0.1:3000'",
      '/api2/items',
      false,
    ],
    [
      { '/api': 'http://api.example:80' },
      'http://localhost/items',
      'fetch',
      "'/api2': 'http://localhost'",
      '/api2/items',
      false,
    ],
    // A target object is printed as the URL it stands for, with its scheme.
    [
      { '/live': { target: { protocol: 'ws', host: '127.0.0.1', port: 3000 } } },
      'ws://localhost:3000/feed',
      'WebSocket',
      "'/live': 'ws://127.0.0.1:3000'",
      '/live/feed',
      true,
    ],
  ])('%j, %s by %s → %s %s', (config, url, initiator, route, path, existing) => {
    expect(suggestRoute(new URL(url), routes(config), initiator)).toEqual({ route, path, existing })
  })

  it('every suggested new route resolves, and then fits the same call', () => {
    for (const [url, initiator] of [
      ['http://127.0.0.1:3000/items', 'fetch'],
      ['ws://localhost:3001/live', 'WebSocket'],
      ['https://localhost:8443/api/x', 'EventSource'],
    ] as const) {
      const first = suggestRoute(new URL(url), routes({ '/other': { mock: true } }), initiator)
      const config = new Function(`return { ${first.route} }`)() as Record<string, unknown>
      const again = suggestRoute(new URL(url), routes(config), initiator)
      expect(again).toEqual({ route: first.route, path: first.path, existing: true })
    }
  })
})

describe('writtenRoute', () => {
  it('adds ws: true to a route that should take WebSockets and does not', () => {
    const [route] = routes({ '/rest': 'http://localhost:3000' })
    if (route?.kind !== 'forward') throw new Error('a forward route')
    expect(writtenRoute(route)).toBe("'/rest': 'http://localhost:3000'")
    expect(writtenRoute(route, true)).toBe("'/rest': { target: 'http://localhost:3000', ws: true }")
  })
})

describe('suggestRoute: a route whose rewrite gives the called path', () => {
  it('passes over a longer prefix whose function pathRewrite sends another path, for the plain route to the same backend', () => {
    const config = {
      '/api/v2': {
        target: 'http://localhost:3000',
        pathRewrite: (path: string) => path.replace('/api/v2', '/v2'),
      },
      '/api': 'http://localhost:3000',
    }
    expect(suggestRoute(new URL('http://localhost:3000/items?q=1'), routes(config), 'fetch')).toEqual({
      route: "'/api': 'http://localhost:3000'",
      path: '/api/items?q=1',
      existing: true,
    })
  })

  it('passes over a RegExp map that sends another path; takes a function route when it is the only one', () => {
    const mapped = { '/v1': { target: 'http://localhost:3000', pathRewrite: { '^/v1': '/legacy' } } }
    expect(
      suggestRoute(
        new URL('http://localhost:3000/items'),
        routes({ ...mapped, '/api': 'http://localhost:3000' }),
        'fetch',
      ),
    ).toMatchObject({
      route: "'/api': 'http://localhost:3000'",
      path: '/api/items',
    })
    const only = { '/api': { target: 'http://localhost:3000', pathRewrite: (path: string) => path } }
    expect(suggestRoute(new URL('http://localhost:3000/items'), routes(only), 'fetch')).toMatchObject({
      path: '/api/items',
      existing: true,
    })
  })
})

describe('suggestRoute: a call to the dev server itself', () => {
  const page = 'http://localhost:5173'

  it.each<[Record<string, unknown>, string, CallInitiator, string, string, boolean]>([
    // A WebSocket no route takes: a route for its path to the one backend the routes know, the path kept.
    [
      { '/api': 'http://localhost:3001' },
      'ws://localhost:5173/live/echo',
      'WebSocket',
      "'/live': { target: 'ws://localhost:3001', ws: true, pathRewrite: false }",
      '/live/echo',
      false,
    ],
    // No backend known (none, or two): a placeholder that says what to put there.
    [
      { '/other': { mock: true } },
      'ws://127.0.0.1:5173/live/echo',
      'WebSocket',
      "'/live': { target: 'ws://<your WebSocket server: host:port>', ws: true, pathRewrite: false }",
      '/live/echo',
      false,
    ],
    [
      { '/a': 'http://localhost:3001', '/b': 'https://api.example' },
      'ws://localhost:5173/live',
      'WebSocket',
      "'/live': { target: 'ws://<your WebSocket server: host:port>', ws: true, pathRewrite: false }",
      '/live',
      false,
    ],
    // The route that takes the path, with ws: true where it lacks it.
    [
      { '/x': 'http://localhost:3001' },
      'ws://localhost:5173/x/echo',
      'WebSocket',
      "'/x': { target: 'http://localhost:3001', ws: true }",
      '/x/echo',
      true,
    ],
    // A fetch to the dev server under another name: the route that takes it, called on the page's own origin.
    [
      { '/api': 'http://localhost:3001' },
      'http://127.0.0.1:5173/api/items',
      'fetch',
      "'/api': 'http://localhost:3001'",
      '/api/items',
      true,
    ],
    [
      { '/api': 'http://localhost:3001' },
      'http://127.0.0.1:5173/assets/app.js',
      'fetch',
      '// no route needed: the dev server serves /assets/app.js itself',
      '/assets/app.js',
      true,
    ],
  ])('%j, %s by %s → %s %s', (config, url, initiator, route, path, existing) => {
    const suggestion = suggestRoute(new URL(url), routes(config), initiator, page)
    expect(suggestion).toEqual({ route, path, existing })
    expect(suggestion.route).not.toContain(':5173')
  })

  it('a suggested WebSocket route with a known backend resolves, and then takes the call', () => {
    const config = { '/api': 'http://localhost:3001' }
    const first = suggestRoute(new URL('ws://localhost:5173/live/echo'), routes(config), 'WebSocket', page)
    const added = { ...config, ...(new Function(`return { ${first.route} }`)() as Record<string, unknown>) }
    expect(suggestRoute(new URL('ws://localhost:5173/live/echo'), routes(added), 'WebSocket', page)).toEqual({
      route: "'/live': { target: 'ws://localhost:3001', pathRewrite: false, ws: true }",
      path: '/live/echo',
      existing: true,
    })
  })
})
