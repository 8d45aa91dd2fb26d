import connect from 'connect'
import { describe, expect, it } from 'vitest'
import { checksBeforeProxy } from '../src/checks-before-proxy.js'

const fn = (name: string) => ({ [name]: () => {} })[name] as () => void
const hostCheck = fn('hostCheck')
const crossOrigin = fn('crossOrigin')
const patch = fn('patch')
const mine = fn('mine')
const own = fn('own')

// What webpack-dev-server gives setupMiddlewares (abridged): its checks and patch, by name.
const list = [
  { name: 'host-header-check', middleware: hostCheck },
  { name: 'cross-origin-header-check', middleware: crossOrigin },
  { name: 'http2-status-message-patch', middleware: patch },
  { name: 'compression', middleware: fn('compression') },
]

describe('checksBeforeProxy', () => {
  it.each<[title: string, mounted: Array<() => void>, expected: Array<() => void> | undefined]>([
    ["webpack-dev-server's checks: run, in order", [hostCheck, crossOrigin, own], [hostCheck, crossOrigin]],
    ['its HTTP/2 patch: left out', [hostCheck, crossOrigin, patch, own], [hostCheck, crossOrigin]],
    ['nothing before the proxy', [own, hostCheck], []],
    [
      "a middleware of the user's first: the proxy stays in the app",
      [hostCheck, mine, crossOrigin, own],
      undefined,
    ],
    ['the proxy not mounted', [hostCheck], undefined],
  ])('%s', (_title, mounted, expected) => {
    const app = connect()
    for (const middleware of mounted) app.use(middleware)
    expect(checksBeforeProxy(app, list)(own)).toEqual(expected)
  })
})
