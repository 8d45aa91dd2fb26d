import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { isViteHmrUpgrade, type ViteSocketConfig, viteHmrPath } from '../src/vite-sockets.js'

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
