import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createLocationRewrite } from '../../src/forward/location-rewrite.js'
import type { RouteOptions } from '../../src/index.js'
import { forwardRoute } from '../support/resolved.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

const BROWSER = 'http://localhost:5173'

function rewriterFor(target: string, options: Omit<RouteOptions, 'target'> = {}, prefix = '/api') {
  const rewrite = createLocationRewrite(
    forwardRoute(resolveOptions({ [prefix]: { target, ...options } }).routes[0]),
  )
  if (rewrite.kind !== 'rewrite') throw new Error(`expected a rewrite, got ${rewrite.kind}`)
  return rewrite.rewrite
}

describe('createLocationRewrite', () => {
  it.each<[title: string, location: string, expected: string]>([
    [
      'an absolute URL on the target',
      'http://127.0.0.1:3000/posts?page=2#top',
      `${BROWSER}/api/posts?page=2#top`,
    ],
    ['the target root', 'http://127.0.0.1:3000/', `${BROWSER}/api/`],
    ['the target with its default port written out', 'http://127.0.0.1:80/x', 'http://127.0.0.1:80/x'],
    ['a path-absolute value', '/posts', '/api/posts'],
    ['a path-absolute value with a query', '/login?next=%2Fme', '/api/login?next=%2Fme'],
    ['a relative value (already relative to the proxied URL)', 'posts/2', 'posts/2'],
    ['a dot-relative value', '../up', '../up'],
    ['another origin', 'https://auth.example/login', 'https://auth.example/login'],
    ['another port of the same host', 'http://127.0.0.1:3001/x', 'http://127.0.0.1:3001/x'],
    ['a protocol-relative URL to the target', '//127.0.0.1:3000/x', `${BROWSER}/api/x`],
    ['a protocol-relative URL elsewhere', '//evil.example/x', '//evil.example/x'],
  ])('%s: %s → %s', (_title, location, expected) => {
    expect(rewriterFor('http://127.0.0.1:3000')(location, BROWSER)).toBe(expected)
  })

  it('takes the target base path off, and leaves paths outside it alone', () => {
    const rewrite = rewriterFor('http://127.0.0.1:3000/v1')
    expect(rewrite('http://127.0.0.1:3000/v1/posts', BROWSER)).toBe(`${BROWSER}/api/posts`)
    expect(rewrite('/v1/posts', BROWSER)).toBe('/api/posts')
    expect(rewrite('/v1', BROWSER)).toBe('/api/')
    expect(rewrite('/v2/posts', BROWSER)).toBe('/v2/posts')
    expect(rewrite('/v1x', BROWSER)).toBe('/v1x')
  })

  it('puts nothing back with pathRewrite: false, or on the root route', () => {
    expect(rewriterFor('http://127.0.0.1:3000', { pathRewrite: false })('/api/posts', BROWSER)).toBe(
      '/api/posts',
    )
    expect(rewriterFor('http://127.0.0.1:3000', {}, '/')('http://127.0.0.1:3000/x', BROWSER)).toBe(
      `${BROWSER}/x`,
    )
  })

  it('keeps an absolute value when the browser origin is unknown', () => {
    expect(rewriterFor('http://127.0.0.1:3000')('http://127.0.0.1:3000/x', undefined)).toBe(
      'http://127.0.0.1:3000/x',
    )
  })

  it('is off with rewriteLocation: false, and irreversible for a RegExp map or a function', () => {
    const kind = (options: Omit<RouteOptions, 'target'>) =>
      createLocationRewrite(
        forwardRoute(resolveOptions({ '/api': { target: 'http://h', ...options } }).routes[0]),
      ).kind
    expect(kind({ rewriteLocation: false })).toBe('off')
    expect(kind({ pathRewrite: { '^/api': '/v2' } })).toBe('irreversible')
    expect(kind({ pathRewrite: (path) => path })).toBe('irreversible')
    expect(kind({})).toBe('rewrite')
  })
})

describe('redirects through the proxy', () => {
  async function start(options: Omit<RouteOptions, 'target'> = {}) {
    const target = await listen(
      createServer((req, res) => {
        const [, kind] = (req.url ?? '').split('/')
        const locations: Record<string, string> = {
          absolute: `http://127.0.0.1:${target.port}/posts`,
          relative: '/posts',
          elsewhere: 'https://auth.example/login',
        }
        res.writeHead(302, { location: locations[kind ?? ''] ?? '/', 'content-location': '/posts/1' })
        res.end()
      }),
    )
    cleanup.push(target.close)
    const sink = captureLogSink()
    const proxy = await serveProxy({ '/api': { target: target.url, ...options } }, { logger: sink })
    cleanup.push(proxy.close)
    return { proxy, target, sink }
  }

  it('points an absolute Location on the target at the origin the browser used, prefix back', async () => {
    const { proxy } = await start()
    const res = await sendRequest(`${proxy.url}/api/absolute`, { headers: { host: 'localhost:5173' } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('http://localhost:5173/api/posts')
    expect(res.headers['content-location']).toBe('/api/posts/1')
  })

  it('gives a path-absolute Location its prefix back, and leaves other origins alone', async () => {
    const { proxy } = await start()
    expect((await sendRequest(`${proxy.url}/api/relative`)).headers.location).toBe('/api/posts')
    expect((await sendRequest(`${proxy.url}/api/elsewhere`)).headers.location).toBe(
      'https://auth.example/login',
    )
  })

  it('passes the Location on as it came with rewriteLocation: false', async () => {
    const { proxy } = await start({ rewriteLocation: false })
    expect((await sendRequest(`${proxy.url}/api/relative`)).headers.location).toBe('/posts')
  })

  it('says once per route when a pathRewrite function keeps it from pointing a redirect back', async () => {
    const { proxy, sink } = await start({ pathRewrite: (path) => path.replace(/^\/api/, '') })
    for (let i = 0; i < 3; i++)
      expect((await sendRequest(`${proxy.url}/api/relative`)).headers.location).toBe('/posts')
    const hints = sink.lines.filter((line) => line.message.includes('cannot be undone'))
    expect(hints).toHaveLength(1)
    expect(hints[0]?.message).toContain("route '/api' has a `pathRewrite` that cannot be undone")
  })
})
