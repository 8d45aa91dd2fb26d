import type { AppMiddleware } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { rsbuildChecksBefore } from '../src/checks-before-proxy.js'

/** A middleware with the given `name`, as a named function declaration would have. */
function named(name: string): AppMiddleware {
  const middleware: AppMiddleware = (_req, _res, next) => next()
  return Object.defineProperty(middleware, 'name', { value: name })
}
const own = named('corsDevProxyInApp')
// Rsbuild's host check is an arrow function returned by a factory: it has no name.
const hostCheck: AppMiddleware = (
  () => (_req, _res, next) =>
    next()
)()
const mine = named('mine')

describe('rsbuildChecksBefore', () => {
  it('runs nothing before the proxy when it comes first and Rsbuild checks no host', () => {
    expect(rsbuildChecksBefore([{ route: '', handle: own }], own, false)).toEqual([])
  })

  it("runs Rsbuild's host check, the first layer, when the check is on", () => {
    expect(
      rsbuildChecksBefore(
        [
          { route: '', handle: hostCheck },
          { route: '', handle: own },
        ],
        own,
        true,
      ),
    ).toEqual([hostCheck])
  })

  it.each([
    ['a middleware of yours first, no host check', [mine, own], false],
    ['a middleware of yours after the host check', [hostCheck, mine, own], true],
    ['the host check expected but missing', [own], true],
  ])('keeps the routes inside the app with %s', (_title, handles, check) => {
    const stack = handles.map((handle) => ({ route: '', handle }))
    expect(rsbuildChecksBefore(stack, own, check)).toBeUndefined()
  })

  it('keeps the routes inside the app when the first layer is mounted on a path, or the proxy is not listed', () => {
    expect(
      rsbuildChecksBefore(
        [
          { route: '/x', handle: hostCheck },
          { route: '', handle: own },
        ],
        own,
        true,
      ),
    ).toBeUndefined()
    expect(rsbuildChecksBefore([{ route: '', handle: mine }], own, false)).toBeUndefined()
  })
})
