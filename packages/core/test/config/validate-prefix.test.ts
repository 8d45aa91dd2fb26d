import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { normalizePrefix } from '../../src/config/validate-prefix.js'

describe('normalizePrefix: accepted', () => {
  it.each([
    ['/', '/'],
    ['/api', '/api'],
    ['/api/', '/api'],
    ['/api/v1', '/api/v1'],
    ['/API', '/API'],
    ['/caf%C3%A9', '/caf%C3%A9'],
    ['/a.b/c', '/a.b/c'],
    ['/.well-known', '/.well-known'],
    ['/~user', '/~user'],
    ["/a:b@c!$&'()+,;=", "/a:b@c!$&'()+,;="],
  ])('%s → %s', (key, expected) => {
    expect(normalizePrefix(key)).toBe(expected)
  })
})

describe('normalizePrefix: refused with the fixed key', () => {
  it.each([
    ['api', "must start with '/'", "{ '/api': 'http://localhost:3000' }"],
    ['api/', "must start with '/'", "{ '/api': 'http://localhost:3000' }"],
    ['', "must start with '/'", "{ '/': 'http://localhost:3000' }"],
    ['^/api', 'looks like a regular expression', "{ '/api': 'http://localhost:3000' }"],
    ['^/api/.*', 'looks like a regular expression', "{ '/api': 'http://localhost:3000' }"],
    ['/api?x=1', 'query or fragment', "{ '/api': 'http://localhost:3000' }"],
    ['/api#top', 'query or fragment', "{ '/api': 'http://localhost:3000' }"],
    ['/api/*', 'wildcards', "{ '/api': 'http://localhost:3000' }"],
    ['/api/**', 'wildcards', "{ '/api': 'http://localhost:3000' }"],
    ['//api', "must not contain '//'", "{ '/api': 'http://localhost:3000' }"],
    ['/api//v1', "must not contain '//'", "{ '/api/v1': 'http://localhost:3000' }"],
    ['/api//', "must not contain '//'", "{ '/api': 'http://localhost:3000' }"],
    ['/api/../admin', "must not contain '..'", "{ '/api': 'http://localhost:3000' }"],
    ['/a..b', "must not contain '..'", "{ '/api': 'http://localhost:3000' }"],
    ['/api/./x', "'.' segments", "{ '/api': 'http://localhost:3000' }"],
    ['/api/%2e%2e/x', "'.' segments", "{ '/api': 'http://localhost:3000' }"],
    ['/café', 'percent-encodes', "{ '/caf%C3%A9': 'http://localhost:3000' }"],
    ['/my api', 'percent-encodes', "{ '/my%20api': 'http://localhost:3000' }"],
    ['/api\\v1', 'percent-encodes', "{ '/api/v1': 'http://localhost:3000' }"],
    // Several problems: the example's key has them all fixed.
    ['^api*', 'looks like a regular expression', "{ '/api': 'http://localhost:3000' }"],
    ['api v1', "must start with '/'", "{ '/api%20v1': 'http://localhost:3000' }"],
    // The URL parser drops a newline, as the browser does.
    ['a\nb', "must start with '/'", "{ '/ab': 'http://localhost:3000' }"],
    ['api/../x', "must start with '/'", "{ '/api': 'http://localhost:3000' }"],
  ])('%j: %s', (key, problem, example) => {
    expectConfigError(() => normalizePrefix(key), {
      code: 'INVALID_PREFIX',
      option: `routes['${key.replaceAll('\\', '\\\\').replaceAll('\n', '\\u000a')}']`,
      contains: [problem, example],
    })
  })

  it("renders the user's target in the example", () => {
    expectConfigError(() => normalizePrefix('api', "'http://127.0.0.1:4000'"), {
      code: 'INVALID_PREFIX',
      option: "routes['api']",
      contains: ["{ '/api': 'http://127.0.0.1:4000' }"],
    })
  })
})
