import { describe, expect, it } from 'vitest'
import { isLoopbackOrigin } from '../../src/http/loopback-origin.js'
import {
  isSameOrigin,
  OPAQUE_ORIGIN,
  originOf,
  parseOrigin,
  serializeOrigin,
} from '../../src/http/parse-origin.js'

describe('parseOrigin', () => {
  it.each([
    ['http://localhost:5173', { scheme: 'http', host: 'localhost', port: 5173 }],
    ['http://localhost', { scheme: 'http', host: 'localhost', port: 80 }],
    ['https://example.test', { scheme: 'https', host: 'example.test', port: 443 }],
    ['HTTP://LocalHost:80', { scheme: 'http', host: 'localhost', port: 80 }],
    ['http://[::1]:3000', { scheme: 'http', host: '[::1]', port: 3000 }],
    ['http://[0:0:0:0:0:0:0:1]', { scheme: 'http', host: '[::1]', port: 80 }],
    ['http://127.1:8080', { scheme: 'http', host: '127.0.0.1', port: 8080 }],
    ['wss://socket.test', { scheme: 'wss', host: 'socket.test', port: 443 }],
    ['http://bücher.test', { scheme: 'http', host: 'xn--bcher-kva.test', port: 80 }],
    ['chrome-extension://abcdef', { scheme: 'chrome-extension', host: 'abcdef', port: null }],
  ])('%s', (value, expected) => {
    expect(parseOrigin(value)).toEqual({ opaque: false, ...expected })
  })

  it('returns the opaque marker for null', () => {
    expect(parseOrigin('null')).toBe(OPAQUE_ORIGIN)
  })

  it.each([
    'http://localhost:5173/',
    'http://localhost/path',
    'http://localhost?q',
    'http://localhost#x',
    'http://user@localhost',
    'http://localhost:99999',
    'localhost:5173',
    '*',
    '',
    'http://',
    'http://exa mple.test',
    'http://[zz::1]',
    'Null',
  ])('rejects %j', (value) => {
    expect(parseOrigin(value)).toBeNull()
  })
})

describe('serializeOrigin', () => {
  it.each([
    ['HTTP://LocalHost:80', 'http://localhost'],
    ['https://example.test:443', 'https://example.test'],
    ['https://example.test:80', 'https://example.test:80'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['null', 'null'],
  ])('%s → %s', (value, expected) => {
    expect(serializeOrigin(parseOrigin(value)!)).toBe(expected)
  })
})

describe('originOf and isSameOrigin', () => {
  it('takes the origin of a full URL', () => {
    expect(originOf('http://localhost:5173/src/main.ts?x#y')).toEqual({
      opaque: false,
      scheme: 'http',
      host: 'localhost',
      port: 5173,
    })
    expect(originOf('data:text/plain,hi')).toBe(OPAQUE_ORIGIN)
    expect(originOf('not a url')).toBeNull()
  })

  it.each([
    ['http://localhost/a', new URL('http://localhost:80/b'), true],
    ['https://example.test', 'https://example.test:443/x', true],
    ['http://localhost:5173', 'http://localhost:5174', false],
    ['http://localhost:5173', 'http://127.0.0.1:5173', false],
    ['http://localhost', 'https://localhost', false],
    ['http://LOCALHOST', 'http://localhost/', true],
    ['http://[::1]:3000', 'http://[0:0:0:0:0:0:0:1]:3000/x', true],
    ['http://[::1]:3000', 'http://127.0.0.1:3000', false],
    ['null', 'null', false],
    ['data:text/plain,a', 'data:text/plain,a', false],
    ['nonsense', 'nonsense', false],
  ] as const)('%s vs %s → %s', (a, b, expected) => {
    expect(isSameOrigin(a, b)).toBe(expected)
    expect(isSameOrigin(b, a)).toBe(expected)
  })
})

describe('isLoopbackOrigin (the default CORS origin rule)', () => {
  it.each([
    ['http://localhost:5173', true],
    ['https://localhost', true],
    ['http://app.localhost:3000', true],
    ['http://127.0.0.1:8080', true],
    ['http://127.45.6.7', true],
    ['http://[::1]:5173', true],
    ['http://LOCALHOST:1', true],
    ['null', false],
    ['https://example.com', false],
    ['http://localhost.example.com', false],
    ['http://128.0.0.1', false],
    ['http://192.168.1.10:5173', false],
    ['ws://localhost:5173', false],
    ['file://localhost', false],
    ['http://localhost:5173/', false],
    [undefined, false],
  ] as const)('%s → %s', (origin, expected) => {
    expect(isLoopbackOrigin(origin)).toBe(expected)
  })
})
