import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { isHostAllowed, isViteHmrUpgrade, type ViteSocketConfig, viteHmrPath } from '../src/vite-sockets.js'

describe('viteHmrPath', () => {
  it.each<[title: string, config: ViteSocketConfig, path: string | undefined]>([
    ['the default: base', { base: '/', server: {} }, '/'],
    ['a base', { base: '/app/', server: {} }, '/app/'],
    ['server.hmr.path (Vite 6, 7)', { base: '/app/', server: { hmr: { path: 'hmr' } } }, '/app/hmr'],
    ['server.ws.path (Vite 8)', { base: '/', server: { ws: { path: '/socket' } } }, '/socket'],
    ['HMR off', { base: '/', server: { hmr: false } }, undefined],
    ['Vite 8 socket off', { base: '/', server: { ws: false } }, undefined],
    ['a server of its own', { base: '/', server: { hmr: { server: {} } } }, undefined],
    ['another port', { base: '/', server: { port: 5173, hmr: { port: 24678 } } }, undefined],
    ['the same port written out', { base: '/', server: { port: 5173, hmr: { port: 5173 } } }, '/'],
  ])('%s → %j', (_title, config, path) => {
    expect(viteHmrPath(config)).toBe(path)
  })
})

describe('isViteHmrUpgrade', () => {
  const upgrade = (url: string, protocol?: string) =>
    ({
      url,
      headers: protocol === undefined ? {} : { 'sec-websocket-protocol': protocol },
    }) as IncomingMessage
  it.each<[url: string, protocol: string | undefined, own: boolean]>([
    ['/?token=abc', 'vite-hmr', true],
    ['/', 'vite-ping', true],
    ['/app/', 'vite-hmr', false],
    ['/', 'chat', false],
    ['/', undefined, false],
  ])('%s with %s → %s', (url, protocol, own) => {
    expect(isViteHmrUpgrade(upgrade(url, protocol), '/')).toBe(own)
  })
  it('is never true when Vite serves no HMR socket here', () => {
    expect(isViteHmrUpgrade(upgrade('/', 'vite-hmr'), undefined)).toBe(false)
  })
})

describe('isHostAllowed (Vite’s allowedHosts rule)', () => {
  it.each<[host: string | undefined, allowed: true | string[], result: boolean]>([
    ['localhost:5173', [], true],
    ['app.localhost:5173', [], true],
    ['127.0.0.1:5173', [], true],
    ['[::1]:5173', [], true],
    ['evil.example', [], false],
    ['evil.example:5173', true, true],
    ['dev.example.com:5173', ['dev.example.com'], true],
    ['a.example.com', ['.example.com'], true],
    ['example.com', ['.example.com'], true],
    ['badexample.com', ['.example.com'], false],
    ['[not-an-ip]', [], false],
    [undefined, [], true],
  ])('%s with %j → %s', (host, allowed, result) => {
    expect(isHostAllowed(host, allowed)).toBe(result)
  })
})
