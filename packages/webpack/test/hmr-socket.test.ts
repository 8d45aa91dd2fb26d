import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import type { DevServerLike } from '../src/dev-server-types.js'
import { hmrPath, hostIsAllowed, isHmrUpgrade, wsRoutesShadowedByHmr } from '../src/hmr-socket.js'

describe('hmrPath', () => {
  it.each<[webSocketServer: unknown, path: string | undefined]>([
    [{ type: 'ws', options: { path: '/ws' } }, '/ws'],
    [{ type: 'ws', options: { path: '/hmr' } }, '/hmr'],
    [{ type: 'ws' }, '/ws'],
    ['ws', '/ws'],
    [false, undefined],
    [undefined, undefined],
  ])('webSocketServer %j → %j', (webSocketServer, path) => {
    expect(hmrPath({ options: { webSocketServer } })).toBe(path)
  })
})

describe('wsRoutesShadowedByHmr', () => {
  const target = 'http://localhost:3000'
  it.each<[title: string, prefix: string, ws: boolean, webSocketServer: unknown, shadowed: boolean]>([
    ['a ws route on the HMR path', '/ws', true, 'ws', true],
    ['a ws route below it', '/ws/chat', true, 'ws', true],
    ['a ws route on a moved HMR path', '/hmr', true, { type: 'ws', options: { path: '/hmr' } }, true],
    [
      'a ws route after the HMR socket moved away',
      '/ws',
      true,
      { type: 'ws', options: { path: '/hmr' } },
      false,
    ],
    ['a ws route above it (it only gives the HMR path up)', '/', true, 'ws', false],
    ['a ws route that only starts like it', '/wsx', true, 'ws', false],
    ['a route without ws', '/ws', false, 'ws', false],
    ['no HMR socket', '/ws', true, false, false],
  ])('%s', (_title, prefix, ws, webSocketServer, shadowed) => {
    const { routes } = resolveOptions({ [prefix]: { target, ws } })
    expect(wsRoutesShadowedByHmr(routes, { options: { webSocketServer } })).toEqual(shadowed ? [prefix] : [])
  })
})

describe('isHmrUpgrade', () => {
  const devServer: DevServerLike = { options: { webSocketServer: { type: 'ws', options: { path: '/ws' } } } }
  it.each<[url: string, own: boolean]>([
    ['/ws', true],
    ['/ws?reconnect=1', true],
    ['/ws/123/abcdef/websocket', true],
    ['/wsx', false],
    ['/live?room=1', false],
  ])('%s → %s', (url, own) => {
    expect(isHmrUpgrade(devServer, { url } as IncomingMessage)).toBe(own)
  })
  it('is never true without an HMR socket', () => {
    expect(isHmrUpgrade({ options: { webSocketServer: false } }, { url: '/ws' } as IncomingMessage)).toBe(
      false,
    )
  })
})

describe('hostIsAllowed', () => {
  it("asks webpack-dev-server's own Host check", () => {
    const devServer = {
      options: {},
      isValidHost: (headers: IncomingHttpHeaders, name: string) => headers[name] === 'localhost:8080',
    } as DevServerLike
    expect(hostIsAllowed(devServer, { host: 'localhost:8080' })).toBe(true)
    expect(hostIsAllowed(devServer, { host: 'evil.example' })).toBe(false)
  })
  it('lets every host pass on a version without the check', () => {
    expect(hostIsAllowed({ options: {} }, { host: 'evil.example' })).toBe(true)
  })
})
