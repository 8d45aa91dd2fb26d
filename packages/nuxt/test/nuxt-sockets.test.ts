import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { type HmrServerOptions, isHmrUpgrade, nuxtHmrPath } from '../src/nuxt-sockets.js'

describe('nuxtHmrPath', () => {
  it.each<[title: string, base: string, server: HmrServerOptions | undefined, path: string | undefined]>([
    ["Nuxt's default: the client Vite server's base", '/_nuxt/', undefined, '/_nuxt/'],
    ['nuxi dev handing Vite its listener', '/_nuxt/', { ws: { server: {} }, hmr: { server: {} } }, '/_nuxt/'],
    ['an app.baseURL', '/app/_nuxt/', {}, '/app/_nuxt/'],
    ['server.hmr.path (Vite 6, 7)', '/_nuxt/', { hmr: { path: 'hmr' } }, '/_nuxt/hmr'],
    [
      'server.ws.path (Vite 8.1+), read before hmr',
      '/_nuxt/',
      { ws: { path: '/socket' }, hmr: {} },
      '/_nuxt/socket',
    ],
    ['HMR off', '/_nuxt/', { hmr: false }, undefined],
    ['the socket off (Vite 8)', '/_nuxt/', { ws: false }, undefined],
  ])('%s → %j', (_title, base, server, path) => {
    expect(nuxtHmrPath(base, server)).toBe(path)
  })
})

describe('isHmrUpgrade', () => {
  const upgrade = (url: string, protocol?: string) =>
    ({
      url,
      headers: protocol === undefined ? {} : { 'sec-websocket-protocol': protocol },
    }) as IncomingMessage
  it.each<[url: string, protocol: string | undefined, own: boolean]>([
    ['/_nuxt/?token=abc', 'vite-hmr', true],
    ['/_nuxt/', 'vite-ping', true],
    // Another Vite app's HMR socket proxied under a route (a micro-frontend) is the route's.
    ['/remote/_nuxt/', 'vite-hmr', false],
    ['/_nuxt', 'vite-hmr', false],
    ['/_nuxt/', 'chat', false],
    ['/_nuxt/', undefined, false],
    ['/live', undefined, false],
  ])('%s with %s → %s', (url, protocol, own) => {
    expect(isHmrUpgrade(upgrade(url, protocol), '/_nuxt/')).toBe(own)
  })

  it('is never true when HMR is off', () => {
    expect(isHmrUpgrade(upgrade('/_nuxt/', 'vite-hmr'), undefined)).toBe(false)
  })
})
