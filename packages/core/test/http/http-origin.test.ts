import { describe, expect, it } from 'vitest'
import { httpOrigin, httpScheme } from '../../src/http/http-origin.js'

describe('httpOrigin', () => {
  it('maps ws: and wss: targets to the http: and https: origins of their handshake', () => {
    expect(httpOrigin(new URL('ws://127.0.0.1:3000/socket'))).toBe('http://127.0.0.1:3000')
    expect(httpOrigin(new URL('wss://example.test/socket'))).toBe('https://example.test')
    expect(httpOrigin(new URL('https://example.test:8443/v1'))).toBe('https://example.test:8443')
  })

  it("drops the scheme's default port, as an http(s) origin does", () => {
    expect(httpOrigin(new URL('ws://example.test:80/x'))).toBe('http://example.test')
    expect(httpOrigin(new URL('wss://[::1]:443/x'))).toBe('https://[::1]')
  })
})

describe('httpScheme', () => {
  it.each([
    ['ws:', 'http:'],
    ['wss:', 'https:'],
    ['http:', 'http:'],
    ['https:', 'https:'],
    ['ftp:', 'ftp:'],
  ])('maps %s to %s', (protocol, expected) => {
    expect(httpScheme(protocol)).toBe(expected)
  })
})
