import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import type { RouteOptions } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { rewriteSetCookie } from '../../src/forward/cookie-rewrite.js'
import { forwardRoute } from '../support/resolved.js'

function routeWith(options: Omit<RouteOptions, 'target'>) {
  const route = resolveOptions({ '/api': { target: 'http://127.0.0.1:3000', ...options } }, { log: 'silent' })
    .routes[0]
  return forwardRoute(route)
}

const cookie = 'sid=abc; Domain=api.example.com; Path=/api; HttpOnly; Secure; SameSite=Lax'

describe('rewriteSetCookie: cookieDomainRewrite', () => {
  it.each<[string, RouteOptions['cookieDomainRewrite'], string, string]>([
    ['default removes Domain', undefined, cookie, 'sid=abc; Path=/api; HttpOnly; Secure; SameSite=Lax'],
    ["'' removes Domain", '', cookie, 'sid=abc; Path=/api; HttpOnly; Secure; SameSite=Lax'],
    ['false keeps it', false, cookie, cookie],
    ['a string replaces it', 'localhost', cookie, cookie.replace('api.example.com', 'localhost')],
    [
      'an object maps the matching value',
      { 'api.example.com': 'localhost' },
      cookie,
      cookie.replace('api.example.com', 'localhost'),
    ],
    ['an object leaves other values', { 'other.example.com': 'localhost' }, cookie, cookie],
    [
      "an object maps others with '*'",
      { 'other.example.com': 'x', '*': 'localhost' },
      cookie,
      cookie.replace('api.example.com', 'localhost'),
    ],
    [
      'an exact key wins over *',
      { 'api.example.com': 'exact', '*': 'any' },
      cookie,
      cookie.replace('api.example.com', 'exact'),
    ],
    [
      "an object value '' removes it",
      { 'api.example.com': '' },
      cookie,
      'sid=abc; Path=/api; HttpOnly; Secure; SameSite=Lax',
    ],
    ['the attribute name is case-insensitive', '', 'a=1; domain=x.com; path=/', 'a=1; path=/'],
    ['upper case too', '', 'a=1; DOMAIN=x.com', 'a=1'],
    ['spaces around = are an attribute too', '', 'a=1; Domain = x.com; Path=/', 'a=1; Path=/'],
    [
      'every Domain attribute goes (the last one would win)',
      '',
      'a=1; Domain=a.com; Domain=b.com; Path=/',
      'a=1; Path=/',
    ],
    ['a cookie without Domain is unchanged', 'localhost', 'a=1; Path=/', 'a=1; Path=/'],
    ['Domain at the end', '', 'a=1; HttpOnly; Domain=x.com', 'a=1; HttpOnly'],
    ['a cookie named domain is not an attribute', '', 'domain=x; Path=/', 'domain=x; Path=/'],
    ['an attribute ending in domain is not Domain', '', 'a=1; xdomain=x.com', 'a=1; xdomain=x.com'],
    [
      'an empty Domain is not given a value through *',
      { '*': 'localhost' },
      'a=1; Domain=; Path=/',
      'a=1; Domain=; Path=/',
    ],
    [
      'prototype names are not mappings',
      { '*': 'localhost' },
      'a=1; Domain=constructor',
      'a=1; Domain=localhost',
    ],
    [
      'a leading-dot domain is matched as written',
      { '.example.com': 'localhost' },
      'a=1; Domain=.example.com',
      'a=1; Domain=localhost',
    ],
  ])('%s', (_name, cookieDomainRewrite, input, expected) => {
    const route = routeWith(cookieDomainRewrite === undefined ? {} : { cookieDomainRewrite })
    expect(rewriteSetCookie(input, route)).toBe(expected)
  })
})

describe('rewriteSetCookie: cookiePathRewrite', () => {
  it.each<[string, RouteOptions['cookiePathRewrite'], string, string]>([
    ['default keeps Path', undefined, 'a=1; Path=/api', 'a=1; Path=/api'],
    ['false keeps Path', false, 'a=1; Path=/api', 'a=1; Path=/api'],
    ["'' removes Path", '', 'a=1; Path=/api; HttpOnly', 'a=1; HttpOnly'],
    ['a string replaces Path', '/', 'a=1; Path=/v1; HttpOnly', 'a=1; Path=/; HttpOnly'],
    ['an object maps Path', { '/v1': '/api' }, 'a=1; Path=/v1', 'a=1; Path=/api'],
    ['an object leaves other paths', { '/v1': '/api' }, 'a=1; Path=/v2', 'a=1; Path=/v2'],
    ["'*' maps any path", { '*': '/' }, 'a=1; path=/deep/x', 'a=1; path=/'],
  ])('%s', (_name, cookiePathRewrite, input, expected) => {
    const route = routeWith({
      cookieDomainRewrite: false,
      ...(cookiePathRewrite === undefined ? {} : { cookiePathRewrite }),
    })
    expect(rewriteSetCookie(input, route)).toBe(expected)
  })

  it('rewrites Domain and Path together', () => {
    const route = routeWith({ cookieDomainRewrite: 'localhost', cookiePathRewrite: { '/v1': '/api' } })
    expect(rewriteSetCookie('a=1; Domain=x.com; Path=/v1; Secure', route)).toBe(
      'a=1; Domain=localhost; Path=/api; Secure',
    )
  })
})

describe('Set-Cookie rewriting over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  it.each(['http', 'h2c'] as const)(
    'applies each route cookie rewrite to the Set-Cookie lines a %s client receives',
    async (kind) => {
      const target = await listen(
        createServer((_req, res) => {
          res.setHeader('set-cookie', [
            'sid=1; Domain=api.example.com; Path=/v1; HttpOnly',
            'theme=dark; Domain=other.example; Path=/v1/prefs',
          ])
          res.end('ok')
        }),
      )
      cleanup.push(target.close)
      const proxy = await serveProxy(
        {
          '/default': target.url,
          '/mapped': {
            target: target.url,
            cookieDomainRewrite: { 'api.example.com': 'localhost', '*': '' },
            cookiePathRewrite: { '/v1': '/mapped' },
          },
          '/fixed': { target: target.url, cookieDomainRewrite: 'localhost', cookiePathRewrite: '/' },
          '/kept': { target: target.url, cookieDomainRewrite: false },
        },
        { log: 'silent' },
        kind,
      )
      cleanup.push(proxy.close)
      const cookiesOf = async (path: string) => {
        const url = `${proxy.url}${path}`
        const res = kind === 'http' ? await sendRequest(url) : await sendHttp2Request(url)
        return res.headers['set-cookie']
      }
      expect(await cookiesOf('/default/x')).toEqual([
        'sid=1; Path=/v1; HttpOnly',
        'theme=dark; Path=/v1/prefs',
      ])
      expect(await cookiesOf('/mapped/x')).toEqual([
        'sid=1; Domain=localhost; Path=/mapped; HttpOnly',
        'theme=dark; Path=/v1/prefs',
      ])
      expect(await cookiesOf('/fixed/x')).toEqual([
        'sid=1; Domain=localhost; Path=/; HttpOnly',
        'theme=dark; Domain=localhost; Path=/',
      ])
      expect(await cookiesOf('/kept/x')).toEqual([
        'sid=1; Domain=api.example.com; Path=/v1; HttpOnly',
        'theme=dark; Domain=other.example; Path=/v1/prefs',
      ])
    },
  )
})
