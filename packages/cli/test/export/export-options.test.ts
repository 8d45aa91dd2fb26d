import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LISTEN, parseListen, parseServerNames } from '../../src/export/export-options.js'

describe('parseListen', () => {
  it.each([
    ['8080', { address: undefined, port: 8080 }],
    [DEFAULT_LISTEN, { address: undefined, port: 8080 }],
    ['127.0.0.1:8080', { address: '127.0.0.1', port: 8080 }],
    ['[::1]:80', { address: '[::1]', port: 80 }],
    ['localhost:65535', { address: 'localhost', port: 65_535 }],
    ['*:1', { address: undefined, port: 1 }],
    [' 8080 ', { address: undefined, port: 8080 }],
  ])('%j → %j', (listen, expected) => {
    expect(parseListen(listen)).toEqual(expected)
  })

  it.each(['0', '65536', 'http://127.0.0.1:8080', '127.0.0.1', ':8080', 'a b:80', 'x;y:80', '::1:80', ''])(
    'refuses %j, naming --listen with an example',
    (listen) => {
      expect(() => parseListen(listen)).toThrow(CorsDevProxyError)
      expect(() => parseListen(listen)).toThrow(
        /--listen .*\n {2}Fix it like this: --listen 127\.0\.0\.1:8080/,
      )
    },
  )
})

describe('parseServerNames', () => {
  it.each([
    [undefined, []],
    ['example.com', ['example.com']],
    ['example.com, www.example.com', ['example.com', 'www.example.com']],
    ['a.test b.test', ['a.test', 'b.test']],
    ['*.example.com', ['*.example.com']],
  ])('%j → %j', (serverName, expected) => {
    expect(parseServerNames(serverName)).toEqual(expected)
  })

  it.each(['', ' , ', 'a;b', 'a{b}', 'http://example.com'])(
    'refuses %j, naming --server-name',
    (serverName) => {
      expect(() => parseServerNames(serverName)).toThrow(
        /--server-name .*\n {2}Fix it like this: --server-name api\.example\.com/,
      )
    },
  )
})
