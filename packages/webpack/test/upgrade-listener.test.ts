import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { type CorsDevProxy, resolveOptions } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import type { DevServerLike } from '../src/dev-server-types.js'
import { createUpgradeListener, hmrPath, wsRoutesShadowedByHmr } from '../src/upgrade-listener.js'

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

describe('createUpgradeListener', () => {
  const routes = resolveOptions({
    '/': { target: 'http://localhost:3000', ws: true },
    '/api': 'http://localhost:3000',
  }).routes

  function setup(allowedHost = 'localhost:8080') {
    const upgraded: string[] = []
    const proxy = {
      routes,
      upgrade(req: IncomingMessage) {
        upgraded.push(req.url ?? '')
        return true
      },
    } as unknown as CorsDevProxy
    const devServer = {
      options: { webSocketServer: { type: 'ws', options: { path: '/ws' } } },
      isValidHost: (headers: IncomingHttpHeaders, name: string) => headers[name] === allowedHost,
    } as DevServerLike
    const listener = createUpgradeListener(proxy, devServer)
    const upgrade = (url: string, host = 'localhost:8080') => {
      const socket = new PassThrough()
      let written = ''
      socket.on('data', (chunk: Buffer) => {
        written += chunk.toString()
      })
      listener({ url, headers: { host } } as IncomingMessage, socket, Buffer.alloc(0))
      return () => written
    }
    return { upgraded, upgrade }
  }

  it('forwards upgrades of ws routes and leaves the HMR socket (query ignored, SockJS paths below it) alone', () => {
    const { upgraded, upgrade } = setup()
    upgrade('/ws')
    upgrade('/ws?reconnect=1')
    upgrade('/ws/123/abcdef/websocket')
    upgrade('/wsx')
    upgrade('/live?room=1')
    expect(upgraded).toEqual(['/wsx', '/live?room=1'])
  })

  it('leaves upgrades of routes without ws to other listeners', () => {
    const { upgraded, upgrade } = setup()
    const written = upgrade('/api/socket')
    // The `/` route has ws, but `/api` is the longest match and has not.
    expect(upgraded).toEqual([])
    expect(written()).toBe('')
  })

  it('answers 403 when the Host is not allowed, without forwarding', () => {
    const { upgraded, upgrade } = setup()
    const written = upgrade('/live', 'evil.example')
    expect(upgraded).toEqual([])
    expect(written()).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/)
  })
})
