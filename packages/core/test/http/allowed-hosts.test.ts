import { describe, expect, it } from 'vitest'
import { isHostAllowed } from '../../src/http/allowed-hosts.js'

describe('isHostAllowed (Vite’s allowedHosts rule, which Nuxt applies too)', () => {
  it.each<[host: string | undefined, allowed: true | string[], result: boolean]>([
    ['localhost:5173', [], true],
    ['app.localhost:5173', [], true],
    ['app.localhost', [], true],
    ['127.0.0.1:5173', [], true],
    ['[::1]:5173', [], true],
    ['evil.example', [], false],
    ['evil.example:3000', [], false],
    ['evil.example:5173', true, true],
    ['dev.example.com:5173', ['dev.example.com'], true],
    ['dev.box', ['dev.box'], true],
    ['a.example.com', ['.example.com'], true],
    ['app.example.com:3000', ['.example.com'], true],
    ['example.com', ['.example.com'], true],
    ['badexample.com', ['.example.com'], false],
    ['notexample.com', ['.example.com'], false],
    ['[not-an-ip]', [], false],
    [undefined, [], true],
  ])('%s with %j → %s', (host, allowed, result) => {
    expect(isHostAllowed(host, allowed)).toBe(result)
  })
})
