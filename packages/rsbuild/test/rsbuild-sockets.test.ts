import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { allowedHostsOf, isHostAllowed, isRsbuildHmrUpgrade } from '../src/rsbuild-sockets.js'

const upgrade = (url: string) => ({ url, headers: {} }) as IncomingMessage

describe('isRsbuildHmrUpgrade', () => {
  it.each([
    ['/rsbuild-hmr?token=abc', '/rsbuild-hmr', true],
    ['/rsbuild-hmr', '/rsbuild-hmr', true],
    // ws compares the whole path: below or beside it is not Rsbuild's socket.
    ['/rsbuild-hmr/x', '/rsbuild-hmr', false],
    ['/rsbuild-hmr2', '/rsbuild-hmr', false],
    ['/live', '/rsbuild-hmr', false],
    ['/__hmr?token=1', '/__hmr', true],
    ['/rsbuild-hmr', undefined, false],
  ])('%s with HMR path %s → %s', (url, path, expected) => {
    expect(isRsbuildHmrUpgrade(upgrade(url), path)).toBe(expected)
  })
})

describe('allowedHostsOf', () => {
  it.each([
    [{ allowedHosts: true as const, host: 'localhost' }, undefined],
    [{ host: 'localhost' }, undefined],
    [{ allowedHosts: ['.example.com'], host: '0.0.0.0' }, ['.example.com', '0.0.0.0']],
    [{ allowedHosts: [] }, []],
  ])('%j → %j', (server, expected) => {
    expect(allowedHostsOf(server)).toEqual(expected)
  })
})

describe('isHostAllowed (Rsbuild 2.3 rule)', () => {
  it.each([
    ['127.0.0.1:3000', [], true],
    ['[::1]:3000', [], true],
    ['localhost:3000', [], true],
    ['app.localhost', [], true],
    ['evil.example', [], false],
    ['evil.example', ['localhost'], false],
    ['app.example.com:3000', ['.example.com'], true],
    ['example.com', ['.example.com'], true],
    ['notexample.com', ['.example.com'], false],
    ['DEV.Example.com.', ['dev.example.com'], true],
    ['a/b', ['a'], false],
    [undefined, ['localhost'], false],
  ])('%s with %j → %s', (host, allowed, expected) => {
    expect(isHostAllowed(host, allowed)).toBe(expected)
  })
})
