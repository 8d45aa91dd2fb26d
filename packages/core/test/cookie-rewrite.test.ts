import { describe, expect, it } from 'vitest'
import { rewriteSetCookie } from '../src/cookie-rewrite.js'
import type { RouteOptions } from '../src/options.js'
import { resolveOptions } from '../src/resolve-options.js'

function routeWith(options: Omit<RouteOptions, 'target'>) {
  const route = resolveOptions({ '/api': { target: 'http://127.0.0.1:3000', ...options } }, { log: 'silent' })
    .routes[0]
  if (!route) throw new Error('no route')
  return route
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
