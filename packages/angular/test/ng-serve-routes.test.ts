import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { ngServeRoutes } from '../src/ng-serve-routes.js'

const TARGET = 'http://localhost:3000'

/** The forwarding route `prefix` resolves to, after `ngServeRoutes`. */
function resolved(routes: unknown, shared?: Parameters<typeof ngServeRoutes>[1]) {
  const { routes: list } = resolveOptions(ngServeRoutes(routes, shared), shared)
  return (prefix: string) => {
    const route = list.find((candidate) => candidate.prefix === prefix)
    if (route?.kind !== 'forward') throw new Error(`no forwarding route ${prefix}`)
    return route
  }
}

/** The path the target is sent for `path`, by the route `prefix`. */
function upstream(route: ReturnType<ReturnType<typeof resolved>>, path: string) {
  return route.rewritePath(path, {} as never)
}

describe('ngServeRoutes: a proxy.conf.json read as ng serve reads it', () => {
  it.each([
    [
      'an object entry',
      { '/api': { target: TARGET, changeOrigin: true } },
      '/api/users?x=1',
      '/api/users?x=1',
    ],
    ['a ws entry', { '/api': { target: 'ws://localhost:3001', ws: true } }, '/api/echo', '/api/echo'],
    ['the string shorthand', { '/api': TARGET }, '/api/users', '/api/users'],
    [
      'a pathRewrite map',
      { '/api': { target: TARGET, pathRewrite: { '^/api': '' } } },
      '/api/users',
      '/users',
    ],
    [
      'a pathRewrite function',
      { '/api': { target: TARGET, pathRewrite: (p: string) => p.slice(4) } },
      '/api/u',
      '/u',
    ],
    [
      "Vite's rewrite",
      { '/api': { target: TARGET, rewrite: (p: string) => `/v2${p}` } },
      '/api/u',
      '/v2/api/u',
    ],
  ])('%s: %s reaches the target as ng serve sends it', (_name, routes, path, sent) => {
    expect(upstream(resolved(routes)('/api'), path)).toBe(sent)
  })

  it("turns changeOrigin and xfwd off unless the entry or the shared options set them; a string keeps Vite's changeOrigin", () => {
    const route = resolved({ '/a': { target: TARGET }, '/b': TARGET, '/c': { target: TARGET, xfwd: true } })
    expect([route('/a').changeOrigin, route('/a').xfwd]).toEqual([false, false])
    expect([route('/b').changeOrigin, route('/b').xfwd]).toEqual([true, false])
    expect(route('/c').xfwd).toBe(true)
    const shared = resolved({ '/a': { target: TARGET } }, { changeOrigin: true, xfwd: true })
    expect([shared('/a').changeOrigin, shared('/a').xfwd]).toEqual([true, true])
  })

  it('reads the array form as one key per context', () => {
    const route = resolved([{ context: ['/a', '/b'], target: TARGET, pathRewrite: { '^/a': '/x' } }])
    expect(upstream(route('/a'), '/a/1')).toBe('/x/1')
    expect(upstream(route('/b'), '/b/1')).toBe('/b/1')
  })

  it('refuses an array entry without a context list, naming it', () => {
    expect(() => ngServeRoutes([{ target: TARGET }])).toThrow(CorsDevProxyError)
    expect(() => ngServeRoutes([{ target: TARGET }])).toThrow('routes[0].context')
  })

  it('leaves a mock route, and the caller’s objects, as they were', () => {
    const routes = { '/m': { mock: true }, '/api': { target: TARGET } }
    const translated = ngServeRoutes(routes)
    expect(translated['/m']).toBe(routes['/m'])
    expect(routes['/api']).toEqual({ target: TARGET })
  })

  it("still names a misspelt option (and Vite's rewrite beside a pathRewrite)", () => {
    expect(() => resolveOptions(ngServeRoutes({ '/api': { target: TARGET, changeOrgin: true } }))).toThrow(
      'changeOrgin',
    )
    expect(() =>
      resolveOptions(
        ngServeRoutes({ '/api': { target: TARGET, rewrite: (p: string) => p, pathRewrite: false } }),
      ),
    ).toThrow("routes['/api'].rewrite")
  })
})

describe('ngServeRoutes: the entry as written', () => {
  it('is what the overlay shows and user code gets, without the defaults filled in', () => {
    const entry = { target: TARGET, pathRewrite: (path: string) => path }
    const route = resolved({ '/api': TARGET, '/fn': entry })
    expect(route('/api').source).toEqual({ target: TARGET })
    expect(route('/fn').source).toEqual(entry)
  })
})
