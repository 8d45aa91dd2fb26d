import { describe, expect, it } from 'vitest'
import type { ProxyRequest, Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { describeExchange, describeProtocol, describeRoutes } from '../../src/log/describe-routes.js'

const T = 'http://localhost:3000'

describe('describeRoutes', () => {
  it.each<[name: string, routes: Routes, line: string]>([
    ['a bare target', { '/api': T }, `routes: /api → ${T}`],
    [
      'in the order written, not the order matched',
      { '/api': T, '/api/auth': 'http://localhost:4000' },
      `routes: /api → ${T}, /api/auth → http://localhost:4000`,
    ],
    [
      'in the order written, prefixes of one length too',
      { '/zz': T, '/aa': T, '/mm': T },
      `routes: /zz → ${T}, /aa → ${T}, /mm → ${T}`,
    ],
    ['a target with a base path', { '/api': `${T}/v1/` }, `routes: /api → ${T}/v1`],
    ['a trailing slash in the key', { '/api/': T }, `routes: /api → ${T}`],
    ['ws', { '/live': { target: T, ws: true } }, `routes: /live → ${T} (ws)`],
    ['a ws: target, as written', { '/live': 'ws://localhost:3001' }, 'routes: /live → ws://localhost:3001'],
    [
      'a wss: target with a base path, as written',
      { '/live': 'wss://localhost:3443/socket/' },
      'routes: /live → wss://localhost:3443/socket',
    ],
    [
      'a ws: target with WebSocket forwarding turned off',
      { '/live': { target: 'ws://localhost:3001', ws: false } },
      'routes: /live → ws://localhost:3001 (ws: false)',
    ],
    [
      'a ws: target among targets',
      { '/live': { targets: { local: 'ws://localhost:3001', staging: 'http://staging.test' } } },
      "routes: /live → ws://localhost:3001 (target 'local' of local, staging)",
    ],
    ['cors', { '/api': { target: T, cors: true } }, `routes: /api → ${T} (cors)`],
    [
      'pathRewrite false',
      { '/api': { target: T, pathRewrite: false } },
      `routes: /api → ${T} (pathRewrite: false)`,
    ],
    [
      'pathRewrite rules',
      { '/api': { target: T, pathRewrite: { '^/api/v1': '/v2' } } },
      `routes: /api → ${T} (pathRewrite: {"^/api/v1":"/v2"})`,
    ],
    [
      'pathRewrite function',
      { '/api': { target: T, pathRewrite: (path) => path } },
      `routes: /api → ${T} (pathRewrite: function)`,
    ],
    [
      'changeOrigin off',
      { '/api': { target: T, changeOrigin: false } },
      `routes: /api → ${T} (changeOrigin: false)`,
    ],
    ['xfwd off', { '/api': { target: T, xfwd: false } }, `routes: /api → ${T} (xfwd: false)`],
    [
      'secure off',
      { '/api': { target: 'https://localhost:3443', secure: false } },
      'routes: /api → https://localhost:3443 (secure: false)',
    ],
    ['a timeout', { '/api': { target: T, timeout: 5000 } }, `routes: /api → ${T} (timeout: 5000)`],
    [
      'headers, by name only',
      { '/api': { target: T, headers: { 'X-Token': 'secret' } } },
      `routes: /api → ${T} (headers: x-token)`,
    ],
    [
      'cookie domain kept',
      { '/api': { target: T, cookieDomainRewrite: false } },
      `routes: /api → ${T} (cookieDomainRewrite: false)`,
    ],
    [
      'cookie path',
      { '/api': { target: T, cookiePathRewrite: '/' } },
      `routes: /api → ${T} (cookiePathRewrite: "/")`,
    ],
    ['jsonp', { '/api': { target: T, jsonp: true } }, `routes: /api → ${T} (jsonp)`],
    [
      'jsonp with a parameter',
      { '/api': { target: T, jsonp: { param: 'cb' } } },
      `routes: /api → ${T} (jsonp: cb)`,
    ],
    ['mock', { '/mock': { mock: true } }, 'routes: /mock → mock backend'],
    ['record', { '/api': { target: T, record: true } }, `routes: /api → ${T} (record)`],
    [
      "replay: 'fallback'",
      { '/api': { target: T, replay: 'fallback' } },
      `routes: /api → ${T} (replay: fallback)`,
    ],
    ["replay: 'only'", { '/api': { target: T, replay: 'only' } }, `routes: /api → ${T} (replay: only)`],
    [
      'record and replay',
      { '/api': { target: T, record: true, replay: 'fallback' } },
      `routes: /api → ${T} (record, replay: fallback)`,
    ],
    ['latency alone', { '/api': { target: T, latency: 300 } }, `routes: /api → ${T} (faults)`],
    ['mocks', { '/api': { target: T, mocks: { 'GET /a': { json: 1 } } } }, `routes: /api → ${T} (mocks)`],
    [
      'mocks from a folder',
      { '/api': { target: T, mocks: 'test/mocks' } },
      `routes: /api → ${T} (mocks: test/mocks)`,
    ],
    ['auth, never its value', { '/api': { target: T, auth: 'u:secret' } }, `routes: /api → ${T} (auth)`],
    [
      'followRedirects',
      { '/api': { target: T, followRedirects: true } },
      `routes: /api → ${T} (followRedirects: 20)`,
    ],
    ['a router and no target', { '/api': { router: () => T } }, 'routes: /api → router'],
    [
      'a bypass and no target',
      { '/app': { bypass: () => '/index.html' } },
      'routes: /app → no target (bypass only)',
    ],
    [
      'a target object on the unspecified address',
      { '/api': { target: { host: '0.0.0.0', port: 3000 } } },
      'routes: /api → http://127.0.0.1:3000',
    ],
    ['several notes', { '/live': { target: T, ws: true, cors: true } }, `routes: /live → ${T} (ws, cors)`],
  ])('%s', (_name, routes, line) => {
    expect(describeRoutes(resolveOptions(routes).routes)).toBe(line)
  })

  it('shows shared options on every route they apply to', () => {
    const routes: Routes = { '/a': T, '/b': { target: T, cors: false } }
    expect(describeRoutes(resolveOptions(routes, { cors: true }).routes)).toBe(
      `routes: /a → ${T} (cors), /b → ${T}`,
    )
  })

  it('shows pathRewrite as the user gave it, from the resolved route alone', () => {
    const routes: Routes = {
      '/api': { target: T, pathRewrite: false },
      '/m': { mock: true, pathRewrite: { '^/m': '/v2' } },
    }
    expect(describeRoutes(resolveOptions(routes).routes)).toBe(
      `routes: /api → ${T} (pathRewrite: false), /m → mock backend (pathRewrite: {"^/m":"/v2"})`,
    )
  })
})

describe('describeProtocol and describeExchange', () => {
  const request = (major: number, minor: number, method = 'GET', url = '/api/x') =>
    ({ httpVersionMajor: major, httpVersionMinor: minor, method, url }) as ProxyRequest

  it.each([
    [2, 0, 'h2'],
    [1, 1, 'h1.1'],
    [1, 0, 'h1.0'],
  ])('HTTP/%i.%i is %s', (major, minor, name) => {
    expect(describeProtocol(request(major, minor))).toBe(name)
  })

  it('formats one request as protocol, method, path and status', () => {
    expect(
      describeExchange(
        request(2, 0, 'PUT', '/api/items/1?x=1'),
        204,
        'http://localhost:3000/items/1?x=1',
        12.4,
      ),
    ).toBe('h2 PUT /api/items/1?x=1 → http://localhost:3000/items/1?x=1 204 12 ms')
  })
})
