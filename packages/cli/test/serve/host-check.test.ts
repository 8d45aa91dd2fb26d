import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { checkRequestHost, createHostCheck } from '../../src/serve/host-check.js'

describe('createHostCheck', () => {
  const loopbackBound = createHostCheck({
    bindHost: '127.0.0.1',
    allowedHosts: ['dev.example.test', '.apps.test'],
  })

  it.each([
    [undefined, true],
    ['localhost', true],
    ['localhost:8080', true],
    ['LOCALHOST.', true],
    ['app.localhost:5173', true],
    ['127.0.0.1:8080', true],
    ['127.1:8080', true],
    ['127.255.0.9', true],
    ['[::1]:8080', true],
    ['dev.example.test', true],
    ['DEV.example.test:443', true],
    ['apps.test', true],
    ['x.apps.test', true],
    ['evil.example', false],
    ['evil.example:8080', false],
    ['localhost.evil.example', false],
    ['xapps.test', false],
    ['dev.example.test.evil', false],
    ['192.168.1.10', false],
    ['localhost@evil.example', false],
    ['evil.example/localhost', false],
    ['', false],
    ['[::2]', false],
  ])('Host %j → %s', (host, allowed) => {
    expect(loopbackBound(host)).toBe(allowed)
  })

  it('gives the same verdicts when they come from its memory, after a flood of other hosts too', () => {
    const check = createHostCheck({ bindHost: '127.0.0.1' })
    for (let round = 0; round < 3; round++) {
      expect(check('localhost:5173')).toBe(true)
      expect(check('evil.example')).toBe(false)
      for (let index = 0; index < 300; index++) expect(check(`x${index}.evil.example`)).toBe(false)
      expect(check('127.0.0.1:5173')).toBe(true)
    }
  })

  it('accepts the bind address', () => {
    expect(createHostCheck({ bindHost: 'myhost.lan' })('myhost.lan:8080')).toBe(true)
    expect(createHostCheck({ bindHost: 'myhost.lan' })('other.lan')).toBe(false)
    expect(createHostCheck({ bindHost: '::1' })('[::1]:8080')).toBe(true)
  })

  it('accepts every address of this machine when bound to 0.0.0.0, and still no other name', () => {
    const check = createHostCheck({ bindHost: '0.0.0.0' })
    const external = Object.values(networkInterfaces())
      .flat()
      .find((info) => info !== undefined && !info.internal && info.family === 'IPv4')
    if (external !== undefined) expect(check(`${external.address}:8080`)).toBe(true)
    expect(check('evil.example')).toBe(false)
    expect(check('203.0.113.7')).toBe(external?.address === '203.0.113.7')
  })
})

describe('checkRequestHost', () => {
  const isAllowed = createHostCheck({ bindHost: '127.0.0.1' })
  const request = (headers: Record<string, string>) => ({ headers }) as never

  it.each([
    [{ host: '127.0.0.1:8080' }, { allowed: true, host: '127.0.0.1:8080' }],
    [{ host: 'evil.example' }, { allowed: false, host: 'evil.example' }],
    [{ ':authority': 'localhost:8080' }, { allowed: true, host: 'localhost:8080' }],
    // HTTP/2 with both: the proxy reads `:authority` first, so a good `Host` cannot cover for it.
    [
      { ':authority': 'evil.example', host: 'localhost' },
      { allowed: false, host: 'evil.example' },
    ],
    [
      { ':authority': 'localhost', host: 'evil.example' },
      { allowed: false, host: 'evil.example' },
    ],
    [{}, { allowed: true, host: undefined }],
  ])('%j → %j', (headers, verdict) => {
    expect(checkRequestHost(isAllowed, request(headers))).toEqual(verdict)
  })
})
