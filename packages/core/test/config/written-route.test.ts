import { describe, expect, it } from 'vitest'
import { resolveRoute } from '../../src/config/resolve-route.js'
import { WRITTEN_ROUTE, writtenRoute } from '../../src/config/written-route.js'

describe('writtenRoute', () => {
  it.each([
    ['a route without a written form', { target: 'http://h' }, { target: 'http://h' }],
    [
      'a string written',
      { target: 'http://h', pathRewrite: false, [WRITTEN_ROUTE]: 'http://h' },
      { target: 'http://h' },
    ],
    [
      'an object written',
      { target: 'http://h', xfwd: false, [WRITTEN_ROUTE]: { target: 'http://h' } },
      { target: 'http://h' },
    ],
  ])('%s', (_name, options, written) => {
    expect(writtenRoute(options)).toEqual(written)
  })

  it("is the resolved route's source, while the route resolves from the translated options", () => {
    const route = resolveRoute('/api', {
      target: 'http://h',
      pathRewrite: false,
      [WRITTEN_ROUTE]: 'http://h',
    })
    expect(route.source).toEqual({ target: 'http://h' })
    expect(route.rewritePath('/api/x', {} as never)).toBe('/api/x')
  })
})
