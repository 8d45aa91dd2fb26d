import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import {
  GLOBAL_OPTION_NAMES,
  GLOBAL_VOCABULARY,
  ROUTE_OPTION_NAMES,
  ROUTE_VOCABULARY,
} from '../../src/config/option-lists.js'
import { assertKnownKeys } from '../../src/config/unknown-options.js'

const routePath = (key: string) => `routes['/api'].${key}`
const globalPath = (key: string) => `options.${key}`

describe('assertKnownKeys', () => {
  it('accepts every documented name', () => {
    const route = Object.fromEntries(ROUTE_OPTION_NAMES.map((name) => [name, undefined]))
    const shared = Object.fromEntries(GLOBAL_OPTION_NAMES.map((name) => [name, undefined]))
    expect(() =>
      assertKnownKeys(route, ROUTE_OPTION_NAMES, 'route', routePath, ROUTE_VOCABULARY),
    ).not.toThrow()
    expect(() =>
      assertKnownKeys(shared, GLOBAL_OPTION_NAMES, 'global', globalPath, GLOBAL_VOCABULARY),
    ).not.toThrow()
  })

  it.each([
    ['chageOrigin', false, 'did you mean `changeOrigin`?', '{ changeOrigin: false }'],
    ['changeorigin', true, 'did you mean `changeOrigin`?', '{ changeOrigin: true }'],
    ['traget', 'http://x', 'did you mean `target`?', "{ target: 'http://x' }"],
    ['header', {}, 'did you mean `headers`?', "{ headers: { 'x-api-key': 'dev' } }"],
    ['traget', 'localhost:3000', 'did you mean `target`?', "{ target: 'http://localhost:3000' }"],
    ['pathRewirte', true, 'did you mean `pathRewrite`?', '{ pathRewrite: false }'],
    [
      'cookieDomainRewite',
      '',
      'did you mean `cookieDomainRewrite`?',
      "{ cookieDomainRewrite: { 'api.example.com': 'localhost' } }",
    ],
    ['rewrite', () => '/', 'here it is `pathRewrite`', 'pathRewrite: (path) =>'],
    ['context', '/api', 'is `pathFilter` here', '{ pathFilter: (path, req) =>'],
    [
      'selfHandleResponse',
      true,
      '`transformResponse` gets the whole answer',
      '{ transformResponse: (body) => body }',
    ],
    ['onOpen', () => {}, 'use `on.proxyReqWs`', '{ on: { proxyReqWs:'],
    ['proxyTimeout', 1000, 'is called `timeout` here', '{ timeout: 30000 }'],
    ['websocket', true, 'is called `ws` here', 'ws: true'],
    ['autoRewrite', true, '`rewriteLocation` (on by default)', 'rewriteLocation: true'],
    ['hostRewrite', 'localhost:5173', '`rewriteLocation` (on by default)', 'rewriteLocation: true'],
    ['protocolRewrite', 'http', '`rewriteLocation` (on by default)', 'rewriteLocation: true'],
    [
      'onProxyReq',
      () => {},
      "http-proxy-middleware 2's name: the hook goes in `on`, as `on.proxyReq`",
      '{ on: { proxyReq:',
    ],
    ['onError', () => {}, 'as `on.error`', '{ on: { error:'],
    [
      'origin',
      'http://localhost:5173',
      'is a CORS option: put it inside `cors`',
      "{ cors: { origin: 'http://localhost:5173' } }",
    ],
    ['credentials', true, 'is a CORS option', '{ cors: { credentials: true } }'],
    ['log', 'debug', 'pass it in the second argument', "{ log: 'debug' }"],
    ['logLevel', 'debug', 'pass it in the second argument', "{ log: 'debug' }"],
    ['ignorePath', true, 'use `pathRewrite`', 'Fix it like this: { pathRewrite: false }'],
    ['methods', ['GET'], 'is a CORS option', "{ cors: { methods: ['GET', 'POST', 'PUT'] } }"],
    ['callback', 'cb', 'jsonp: { param }', "{ jsonp: { param: 'callback' } }"],
    [
      'bogus',
      1,
      'is not an option. Known options: target, changeOrigin',
      "{ target: 'http://localhost:3000'",
    ],
  ])('route key %s', (key, value, problem, example) => {
    expectConfigError(
      () =>
        assertKnownKeys(
          { target: 'http://x', [key]: value },
          ROUTE_OPTION_NAMES,
          'route',
          routePath,
          ROUTE_VOCABULARY,
        ),
      {
        code: 'UNKNOWN_OPTION',
        option: routePath(key),
        contains: [problem, example],
      },
    )
  })

  it.each([
    ['target', 'http://x', 'is set per route', "{ '/api': { target: 'http://localhost:3000' } }"],
    ['ws', false, 'is set per route', "{ '/api': { target: 'http://localhost:3000', ws: false } }"],
    ['mock', true, 'is set per route', "{ '/api': { mock: true } }"],
    ['rewrite', () => '/', 'is set per route', 'pathRewrite: (path) => path.replace('],
    [
      'ignorePath',
      true,
      'use `pathRewrite`',
      "{ '/api': { target: 'http://localhost:3000', pathRewrite: false } }",
    ],
    ['logLevel', 'debug', 'is called `log` here', "{ log: 'debug' }"],
    ['logProvider', {}, 'is called `logger` here', '{ logger: console }'],
    ['timout', 5, 'did you mean `timeout`?', '{ timeout: 30000 }'],
    ['loger', {}, 'did you mean `logger`?', '{ logger: console }'],
    ['methods', ['GET'], 'is a CORS option', "{ cors: { methods: ['GET', 'POST', 'PUT'] } }"],
    ['bogus', 1, 'Known options: changeOrigin, xfwd', "{ log: 'info', timeout: 30000 }"],
  ])('shared key %s', (key, value, problem, example) => {
    expectConfigError(
      () => assertKnownKeys({ [key]: value }, GLOBAL_OPTION_NAMES, 'global', globalPath, GLOBAL_VOCABULARY),
      {
        code: 'UNKNOWN_OPTION',
        option: globalPath(key),
        contains: [problem, example],
      },
    )
  })
})
