import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { ROUTE_DEFAULTS } from '../../src/config/option-lists.js'
import type { ProxyRequest } from '../../src/config/options.js'
import { NO_SHARED_OPTIONS, resolveRoute } from '../../src/config/resolve-route.js'
import { forwardRoute } from '../support/resolved.js'

const req = {} as IncomingMessage as ProxyRequest

describe('resolveRoute', () => {
  it('normalizes the prefix and applies the documented defaults', () => {
    const route = forwardRoute(resolveRoute('/api/', 'http://localhost:3000/v1'))
    expect(route).toMatchObject({
      prefix: '/api',
      changeOrigin: ROUTE_DEFAULTS.changeOrigin,
      // No deadline on the answer by default, as in Vite's and http-proxy-middleware's proxies.
      timeout: undefined,
      cookieDomainRewrite: '',
      cookiePathRewrite: false,
    })
    expect(route.target.pathname).toBe('/v1')
    expect(route.rewritePath('/api/x', req)).toBe('/x')
  })

  it("resolves proxy.conf.json's { '^/api': '' } on '/api' as the default rewrite, which redirects can undo", () => {
    const route = forwardRoute(resolveRoute('/api', { target: 'http://h', pathRewrite: { '^/api': '' } }))
    expect(route.pathRewrite).toBeUndefined()
    expect(route.rewritePath('/api/x?y=1', req)).toBe('/x?y=1')
    const other = forwardRoute(resolveRoute('/api', { target: 'http://h', pathRewrite: { '^/api': '/v2' } }))
    expect(other.pathRewrite).toEqual({ '^/api': '/v2' })
  })

  it('uses the given defaults when the route sets nothing', () => {
    const defaults = { ...NO_SHARED_OPTIONS, timeout: 10, xfwd: false, headers: [['x-a', '1'] as const] }
    expect(resolveRoute('/api', 'http://h', defaults)).toMatchObject({
      timeout: 10,
      xfwd: false,
      headers: [['x-a', '1']],
    })
  })

  it('passes request-time pathRewrite problems to the hook', () => {
    const problems: string[] = []
    const route = resolveRoute(
      '/api',
      { target: 'http://h', pathRewrite: () => undefined },
      NO_SHARED_OPTIONS,
    )
    expect(route.rewritePath('/api/x', req, (message) => problems.push(message))).toBe('/api/x')
    expect(problems).toEqual([
      "routes['/api'].pathRewrite returned undefined instead of a path; forwarding /api/x unchanged",
    ])
  })

  it('names the option with the key as the user wrote it, and the example with the fixed one', () => {
    expectConfigError(() => resolveRoute('/api/', { target: 'http://h', xfwd: 'no' }), {
      code: 'INVALID_OPTION',
      option: "routes['/api/'].xfwd",
      contains: ['must be true or false'],
    })
    expectConfigError(() => resolveRoute('/api/', { changeOrigin: true }), {
      code: 'INVALID_TARGET',
      option: "routes['/api/'].target",
      contains: ["{ '/api': { target: 'http://localhost:3000' } }"],
    })
  })

  it.each([
    [3000, "{ '/api': 'http://localhost:3000' }"],
    [8080, "{ '/api': 'http://localhost:8080' }"],
    [70_000, "{ '/api': 'http://localhost:3000' }"],
    [Number.POSITIVE_INFINITY, "{ '/api': 'http://localhost:3000' }"],
  ])('reads a route value %j as a port only when it is one', (config, example) => {
    expectConfigError(() => resolveRoute('/api', config), {
      code: 'INVALID_TARGET',
      option: "routes['/api']",
      contains: [`Fix it like this: ${example}`],
    })
  })

  it.each([
    ['http://127.0.0.1:4000', "{ '/api': 'http://127.0.0.1:4000' }"],
    ['localhost:4000', "{ '/api': 'http://localhost:3000' }"],
    [{ target: 'http://user:secret@h' }, "{ '/api': 'http://localhost:3000' }"],
    [{ mock: { cors: 'reflect' } }, "{ '/api': { mock: true } }"],
  ])('shows a prefix fix for %j that works as it is', (config, example) => {
    expectConfigError(() => resolveRoute('api', config), {
      code: 'INVALID_PREFIX',
      option: "routes['api']",
      contains: [`Fix it like this: ${example}`],
    })
  })

  it.each([null, true, ['http://h'], () => 'http://h'])('refuses a route value %j', (config) => {
    expectConfigError(() => resolveRoute('/api', config), {
      code: 'INVALID_TARGET',
      option: "routes['/api']",
      contains: ['must be a target URL string or a route object'],
    })
  })
})
