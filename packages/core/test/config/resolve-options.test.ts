import type { IncomingMessage } from 'node:http'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import type { CorsDevProxyOptions, ProxyRequest, Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createLogger } from '../../src/log/logger.js'
import { forwardRoute } from '../support/resolved.js'

const quiet: CorsDevProxyOptions = { log: 'silent' }
const req = {} as IncomingMessage as ProxyRequest

function only(routes: Routes, options: CorsDevProxyOptions = quiet) {
  const [route] = resolveOptions(routes, options).routes
  if (!route) throw new Error('no route')
  return route
}

function onlyForward(routes: Routes, options: CorsDevProxyOptions = quiet) {
  return forwardRoute(only(routes, options))
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

describe('resolveOptions: defaults', () => {
  it('fills every default for a string route', () => {
    const resolved = resolveOptions({ '/api': 'http://localhost:3000' })
    expect(resolved.log).toBe('info')
    // No logger chosen: the host decides (the dev server's logger in an adapter, else the console).
    expect(resolved.logger).toBeUndefined()
    expect(resolved.warnings).toEqual([])
    const route = forwardRoute(resolved.routes[0])
    expect(route).toMatchObject({
      kind: 'forward',
      prefix: '/api',
      changeOrigin: true,
      xfwd: true,
      ws: false,
      secure: true,
      timeout: undefined,
      headers: [],
      cookieDomainRewrite: '',
      cookiePathRewrite: false,
      cors: undefined,
      jsonp: undefined,
    })
    expect(route).not.toHaveProperty('mock')
    expect(route?.target?.href).toBe('http://localhost:3000/')
    expect(route?.rewritePath('/api/users?x=1', req)).toBe('/users?x=1')
  })

  it('keeps log and logger when given', () => {
    const logger = { info() {}, warn() {}, error() {} }
    const resolved = resolveOptions({ '/': 'http://localhost:3000' }, { log: 'debug', logger })
    expect(resolved.log).toBe('debug')
    expect(resolved.logger).toBe(logger)
  })
})

describe('resolveOptions: shared options are defaults, route values win', () => {
  const shared: CorsDevProxyOptions = {
    log: 'silent',
    changeOrigin: false,
    xfwd: false,
    secure: false,
    timeout: 5000,
    headers: { 'X-Shared': 'shared', 'X-Both': 'shared' },
    cors: { credentials: true },
    jsonp: { param: 'cb' },
  }

  it('inherits every shared value', () => {
    const route = onlyForward({ '/api': 'http://localhost:3000' }, shared)
    expect(route).toMatchObject({ changeOrigin: false, xfwd: false, secure: false, timeout: 5000 })
    expect(route.headers).toEqual([
      ['x-shared', 'shared'],
      ['x-both', 'shared'],
    ])
    // The shared policy is resolved once, with its defaults, and shared by the routes.
    expect(route.cors).toMatchObject({
      credentials: true,
      allowMethods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
      optionsSuccessStatus: 204,
    })
    expect(route.jsonp).toEqual({ param: 'cb' })
  })

  it('lets route values override, and merges headers per name', () => {
    const route = onlyForward(
      {
        '/api': {
          target: 'http://localhost:3000',
          changeOrigin: true,
          xfwd: true,
          secure: true,
          timeout: 100,
          headers: { 'x-both': 'route', 'x-route': 'route' },
          cors: { origin: 'http://localhost:5173' },
          jsonp: true,
        },
      },
      shared,
    )
    expect(route).toMatchObject({ changeOrigin: true, xfwd: true, secure: true, timeout: 100 })
    expect(route.headers).toEqual([
      ['x-shared', 'shared'],
      ['x-both', 'route'],
      ['x-route', 'route'],
    ])
    // cors and jsonp objects replace the shared ones as a whole: credentials is back to false.
    expect(route.cors?.credentials).toBe(false)
    const origin = route.cors?.origin
    if (origin?.kind !== 'match') throw new Error('a string origin is matched')
    expect(origin.test('http://localhost:5173')).toBe(true)
    expect(origin.test('http://localhost:5174')).toBe(false)
    expect(route.jsonp).toEqual({ param: 'callback' })
  })

  it('lets a route switch cors and jsonp off', () => {
    const route = only({ '/api': { target: 'http://localhost:3000', cors: false, jsonp: false } }, shared)
    expect(route.cors).toBeUndefined()
    expect(route.jsonp).toBeUndefined()
  })

  it.each([
    [{ cors: true }, 'cors', { credentials: false, preflightContinue: false, optionsSuccessStatus: 204 }],
    [{ cors: false }, 'cors', undefined],
    [{ jsonp: true }, 'jsonp', { param: 'callback' }],
    [{ jsonp: false }, 'jsonp', undefined],
  ] as const)('shared %j', (options, field, expected) => {
    const value = only({ '/api': 'http://localhost:3000' }, { ...quiet, ...options })[field]
    if (expected === undefined) expect(value).toBeUndefined()
    else expect(value).toMatchObject(expected)
  })
})

describe('resolveOptions: targets, mock and ws', () => {
  it('turns a ws: target into http: with ws on, unless ws is false', () => {
    expect(only({ '/socket': 'ws://localhost:3000/live' })).toMatchObject({ ws: true })
    expect(onlyForward({ '/socket': 'wss://localhost:3000/live' }).target.href).toBe(
      'https://localhost:3000/live',
    )
    expect(only({ '/socket': { target: 'ws://localhost:3000', ws: false } }).ws).toBe(false)
    expect(only({ '/socket': { target: 'http://localhost:3000', ws: true } }).ws).toBe(true)
  })

  it('answers from the mock backend without a target, with ws allowed', () => {
    const mock = only({ '/api': { mock: true } })
    expect(mock).toMatchObject({
      kind: 'mock',
      mock: { cors: 'off', jsonpParam: 'callback', bodyLimit: 1024 * 1024, logLimit: 1000 },
    })
    expect(mock).not.toHaveProperty('target')
    expect(only({ '/api': { mock: { cors: 'reflect' }, ws: true } })).toMatchObject({
      kind: 'mock',
      mock: { cors: 'reflect' },
      ws: true,
    })
    expect(only({ '/api': { target: 'http://localhost:3000', mock: false } }).kind).toBe('forward')
  })

  it('builds rewritePath from pathRewrite', () => {
    expect(only({ '/api': { target: 'http://h', pathRewrite: false } }).rewritePath('/api/x', req)).toBe(
      '/api/x',
    )
    expect(
      only({ '/api': { target: 'http://h', pathRewrite: { '^/api': '/v2' } } }).rewritePath('/api/x', req),
    ).toBe('/v2/x')
    expect(
      only({ '/api': { target: 'http://h', pathRewrite: (p) => p.toUpperCase() } }).rewritePath(
        '/api/x',
        req,
      ),
    ).toBe('/API/X')
  })

  it('reports a misbehaving pathRewrite function through the caller logger, once per cause', () => {
    const lines: string[] = []
    const sink = { info() {}, warn: (m: string) => lines.push(stripVTControlCharacters(m)), error() {} }
    const route = only({ '/api': { target: 'http://h', pathRewrite: () => undefined as unknown as string } })
    const logger = createLogger('info', sink)
    for (let i = 0; i < 3; i++) expect(route.rewritePath('/api/x', req, logger.warn)).toBe('/api/x')
    expect(lines).toEqual([
      "[cors-dev-proxy] routes['/api'].pathRewrite returned undefined instead of a path; forwarding /api/x unchanged",
    ])
  })
})

describe('resolveOptions: order, freezing, no mutation', () => {
  it('sorts longest prefix first whatever the key order', () => {
    const { routes } = resolveOptions(
      {
        '/': 'http://h:1',
        '/a': 'http://h:2',
        '/a/b/c': 'http://h:4',
        '/b': 'http://h:5',
        '/a/b/': 'http://h:3',
      },
      quiet,
    )
    expect(routes.map((route) => route.prefix)).toEqual(['/a/b/c', '/a/b', '/a', '/b', '/'])
  })

  it('freezes everything it returns', () => {
    const resolved = resolveOptions(
      { '/api': { target: 'http://h', headers: { a: 'b' }, cors: true, mock: false } },
      quiet,
    )
    const route = forwardRoute(resolved.routes[0])
    expect(Object.isFrozen(resolved)).toBe(true)
    expect(Object.isFrozen(resolved.routes)).toBe(true)
    expect(Object.isFrozen(route)).toBe(true)
    expect(Object.isFrozen(route?.headers)).toBe(true)
    expect(Object.isFrozen(route?.cors)).toBe(true)
  })

  it("never mutates the caller's objects", () => {
    const cors = { credentials: true }
    const routes = deepFreeze({
      '/api/': {
        target: 'ws://localhost:3000',
        headers: { 'X-A': '1' },
        pathRewrite: { '^/api': '' },
        cookieDomainRewrite: { '*': 'localhost' },
        cors,
        jsonp: true,
      },
      '/mock': { mock: { cors: 'reflect' as const } },
    })
    const options = deepFreeze({ log: 'silent' as const, headers: { 'X-B': '2' }, cors: true })
    const before = JSON.stringify([routes, options])
    const resolved = resolveOptions(routes, options)
    expect(JSON.stringify([routes, options])).toBe(before)
    expect(resolved.routes.find((route) => route.prefix === '/api')?.cors).not.toBe(cors)
  })
})

describe('resolveOptions: configuration errors', () => {
  it.each([
    ['null routes', null, undefined, 'INVALID_ROUTES', 'routes', 'must be an object'],
    ['array routes', ['/api'], undefined, 'INVALID_ROUTES', 'routes', 'must be an object'],
    ['string routes', 'http://localhost:3000', undefined, 'INVALID_ROUTES', 'routes', 'must be an object'],
    ['no route', {}, undefined, 'INVALID_ROUTES', 'routes', 'has no route'],
    [
      'options not an object',
      { '/api': 'http://h' },
      'debug',
      'INVALID_OPTION',
      'options',
      'must be an object',
    ],
    [
      'relative prefix',
      { api: 'http://h' },
      undefined,
      'INVALID_PREFIX',
      "routes['api']",
      "{ '/api': 'http://h' }",
    ],
    ['prefix with ..', { '/api/..': 'http://h' }, undefined, 'INVALID_PREFIX', "routes['/api/..']", "'..'"],
    [
      'prefix with ?',
      { '/api?x': 'http://h' },
      undefined,
      'INVALID_PREFIX',
      "routes['/api?x']",
      "{ '/api': 'http://h' }",
    ],
    [
      'prefix with #',
      { '/api#x': 'http://h' },
      undefined,
      'INVALID_PREFIX',
      "routes['/api#x']",
      'query or fragment',
    ],
    [
      'prefix with //',
      { '/a//b': 'http://h' },
      undefined,
      'INVALID_PREFIX',
      "routes['/a//b']",
      "{ '/a/b': 'http://h' }",
    ],
    [
      'duplicate after normalization',
      { '/api': 'http://h', '/api/': 'http://h' },
      undefined,
      'INVALID_PREFIX',
      "routes['/api/']",
      "is the same prefix as routes['/api']",
    ],
    [
      'missing target',
      { '/api': { changeOrigin: true } },
      undefined,
      'INVALID_TARGET',
      "routes['/api'].target",
      'is missing',
    ],
    [
      'number route',
      { '/api': 3000 },
      undefined,
      'INVALID_TARGET',
      "routes['/api']",
      "{ '/api': 'http://localhost:3000' }",
    ],
    [
      'not a URL',
      { '/api': 'not a url' },
      undefined,
      'INVALID_TARGET',
      "routes['/api'].target",
      'is not an absolute URL',
    ],
    [
      'credentials',
      { '/api': 'http://u:p@h' },
      undefined,
      'INVALID_TARGET',
      "routes['/api'].target",
      'credentials',
    ],
    [
      'query',
      { '/api': 'http://h/?a=1' },
      undefined,
      'INVALID_TARGET',
      "routes['/api'].target",
      'query or fragment',
    ],
    [
      'ftp',
      { '/api': 'ftp://h' },
      undefined,
      'UNSUPPORTED_SCHEME',
      "routes['/api'].target",
      'ftp: is not supported',
    ],
    [
      'typo on a route',
      { '/api': { target: 'http://h', chageOrigin: false } },
      undefined,
      'UNKNOWN_OPTION',
      "routes['/api'].chageOrigin",
      'did you mean `changeOrigin`?',
    ],
    [
      'Vite rewrite',
      { '/api': { target: 'http://h', rewrite: (p: string) => p } },
      undefined,
      'UNKNOWN_OPTION',
      "routes['/api'].rewrite",
      '`pathRewrite`',
    ],
    [
      'typo in options',
      { '/api': 'http://h' },
      { chageOrigin: false },
      'UNKNOWN_OPTION',
      'options.chageOrigin',
      'did you mean `changeOrigin`?',
    ],
    [
      'route option in options',
      { '/api': 'http://h' },
      { ws: true },
      'UNKNOWN_OPTION',
      'options.ws',
      'is set per route',
    ],
    [
      'changeOrigin not boolean',
      { '/api': { target: 'http://h', changeOrigin: 'yes' } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].changeOrigin",
      'must be true or false',
    ],
    [
      'ws not boolean',
      { '/api': { target: 'http://h', ws: 1 } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].ws",
      'must be true or false',
    ],
    [
      'shared secure not boolean',
      { '/api': 'http://h' },
      { secure: 'no' },
      'INVALID_OPTION',
      'options.secure',
      'must be true or false',
    ],
    [
      'timeout 0',
      { '/api': { target: 'http://h', timeout: 0 } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].timeout",
      'positive number',
    ],
    [
      'shared timeout Infinity',
      { '/api': 'http://h' },
      { timeout: Number.POSITIVE_INFINITY },
      'INVALID_OPTION',
      'options.timeout',
      'positive number',
    ],
    [
      'header value',
      { '/api': { target: 'http://h', headers: { a: 1 } } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].headers['a']",
      'must be a string',
    ],
    [
      'header name',
      { '/api': 'http://h' },
      { headers: { 'a b': 'c' } },
      'INVALID_OPTION',
      "options.headers['a b']",
      'not a valid header name',
    ],
    [
      'pathRewrite RegExp',
      { '/api': { target: 'http://h', pathRewrite: { '(': '' } } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].pathRewrite['(']",
      'not a valid regular expression',
    ],
    [
      'pathRewrite true',
      { '/api': { target: 'http://h', pathRewrite: true } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].pathRewrite",
      'must be false',
    ],
    [
      'jsonp param',
      { '/api': { target: 'http://h', jsonp: { param: 'a&b' } } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].jsonp.param",
      'query parameter name',
    ],
    [
      'cors shape',
      { '/api': { target: 'http://h', cors: 'yes' } },
      undefined,
      'INVALID_CORS',
      "routes['/api'].cors",
      'must be true, false or an object of CORS options',
    ],
    [
      'cors.origin, nested',
      { '/api': { target: 'http://h', cors: { origin: 'not-an-origin' } } },
      undefined,
      'INVALID_CORS',
      "routes['/api'].cors.origin",
      'is not an origin',
    ],
    [
      'cors unknown key, nested',
      { '/api': { target: 'http://h', cors: { origins: ['http://localhost:5173'] } } },
      undefined,
      'UNKNOWN_OPTION',
      "routes['/api'].cors.origins",
      'did you mean `origin`?',
    ],
    [
      'shared cors, nested',
      { '/api': 'http://h' },
      { cors: { credentials: 'yes' } },
      'INVALID_CORS',
      'options.cors.credentials',
      'must be true or false',
    ],
    [
      'mock shape',
      { '/api': { mock: 'yes' } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].mock",
      'must be true or an object of mock backend options',
    ],
    [
      'mock.cors, nested',
      { '/api': { mock: { cors: 'sometimes' } } },
      undefined,
      'INVALID_OPTION',
      "routes['/api'].mock.cors",
      "must be 'off', 'reflect' or 'wildcard'",
    ],
    [
      'log level',
      { '/api': 'http://h' },
      { log: 'verbose' },
      'INVALID_OPTION',
      'options.log',
      'must be one of',
    ],
    [
      'logger',
      { '/api': 'http://h' },
      { logger: {} },
      'INVALID_OPTION',
      'options.logger',
      'info, warn and error',
    ],
    [
      'target and mock',
      { '/api': { target: 'http://h', mock: true } },
      undefined,
      'CONFLICTING_OPTIONS',
      "routes['/api']",
      'both `target` and `mock`',
    ],
  ] as const)('%s → %s', (_name, routes, options, code, option, text) => {
    expectConfigError(
      () => resolveOptions(routes as unknown as Routes, options as unknown as CorsDevProxyOptions),
      {
        code,
        option,
        contains: [text],
      },
    )
  })
})
