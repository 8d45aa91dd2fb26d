import { describe, expect, it } from 'vitest'
import {
  compareMockKeys,
  mockFileName,
  mockKeyOf,
} from '../../../src/stand-ins/route-mocks/mock-file-name.js'

describe('mock file names', () => {
  it.each([
    ['GET /users/:id', 'GET _users_{id}.json'],
    ['/files/*', '_files_{*}.json'],
    ['/', '_.json'],
    ['POST /a_b/c%20d', 'POST _a%5Fb_c%2520d.json'],
    ['GET /x/{y}/:a:b', 'GET _x_%7By%7D_{a%3Ab}.json'],
    ['GET /héllo/*x', 'GET _h%C3%A9llo_%2Ax.json'],
    ['delete /users/', 'DELETE _users_.json'],
  ])('names %s as %s, and reads it back', (key, name) => {
    expect(mockFileName(key)).toBe(name)
    expect(mockKeyOf(name)).toBe(key.replace(/^delete/, 'DELETE'))
  })

  it('writes names that never leave the folder nor start with a dot, whatever the key holds', () => {
    for (const key of [
      'GET /../../etc/passwd',
      'GET /a\\b',
      'GET /..',
      'GET /a/\u0000',
      `GET /${'x'.repeat(50)}`,
    ]) {
      const name = mockFileName(key) as string
      expect(name).not.toMatch(/[/\\\0:*?"<>|]/)
      expect(name.startsWith('.')).toBe(false)
      expect(mockKeyOf(name)).toBe(key)
    }
    expect(mockFileName('users')).toBeUndefined()
  })

  it('reads no key from a name it would not write', () => {
    for (const name of [
      'notes.txt',
      'readme.json',
      'GET users.json',
      'GET _a b.json',
      'GET _{*}_x.json',
      'get _a.json',
      'GET _a%2Fb.json',
      'GET _%zz.json',
    ]) {
      expect(mockKeyOf(name)).toBeUndefined()
    }
  })

  it('orders keys from the most specific to the least', () => {
    expect(
      ['/users/*', 'GET /users/:id', '/users/42', 'GET /users/42', 'GET /users/:id/posts'].sort(
        compareMockKeys,
      ),
    ).toEqual(['GET /users/42', '/users/42', 'GET /users/:id/posts', 'GET /users/:id', '/users/*'])
  })
})
