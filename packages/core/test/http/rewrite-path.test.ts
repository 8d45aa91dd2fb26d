import { describe, expect, it } from 'vitest'
import { joinTargetPath } from '../../src/http/rewrite-path.js'

// The per-request half of `pathRewrite` (the rewriters themselves are exercised through
// `createPathRewriter` in test/config/resolve-path-rewrite.test.ts): the join with the target.
describe('joinTargetPath', () => {
  it.each([
    ['http://h:3000', '/users?x=1', '/users?x=1'],
    ['http://h:3000/', '/users', '/users'],
    ['http://h:3000/v1', '/users?x=1', '/v1/users?x=1'],
    ['http://h:3000/v1/', '/users?x=1', '/v1/users?x=1'],
    ['http://h:3000/v1', '/', '/v1/'],
    ['http://h:3000/v1/', '/', '/v1/'],
    ['http://h:3000/v1', '/?q=1', '/v1/?q=1'],
    ['http://h:3000/a/b', '/c/d', '/a/b/c/d'],
    ['http://h:3000', '/', '/'],
    ['http://h:3000', '//evil.example/x', '/evil.example/x'],
    ['http://h:3000/', '///x', '/x'],
    ['http://h:3000/v1', '//x', '/v1//x'],
    ['http://h:3000/v1', 'users', '/v1/users'],
    // The prefix itself: the target's path as written (http-proxy and nginx agree).
    ['http://h:3000/ws', '', '/ws'],
    ['http://h:3000/ws/', '', '/ws/'],
    ['http://h:3000/ws', '?room=1', '/ws?room=1'],
    ['http://h:3000', '', '/'],
    ['http://h:3000', '?q=1', '/?q=1'],
  ])('%s + %s → %s', (target, path, expected) => {
    expect(joinTargetPath(new URL(target), path)).toBe(expected)
  })
})
