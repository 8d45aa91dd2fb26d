import { describe, expect, it } from 'vitest'
import { type KeyedRequest, requestKey, routeFolderOf, slugOf } from '../../src/recordings/recording-key.js'

const get = (path: string): KeyedRequest => ({ method: 'GET', path, body: undefined, contentType: undefined })
const post = (path: string, body: string, contentType = 'application/json'): KeyedRequest => ({
  method: 'POST',
  path,
  body: Buffer.from(body),
  contentType,
})

describe('requestKey', () => {
  it('names a file after the method and path, with a hash of what the match compares', () => {
    const key = requestKey(get('/users/42?page=2'))
    expect(key.fileName).toMatch(/^GET-users-42\.[0-9a-f]{16}\.json$/)
    expect(key.path).toBe('/users/42?page=2')
    expect(key.body).toBeUndefined()
  })

  it.each([
    ['query pairs in another order', get('/users?a=1&b=2'), get('/users?b=2&a=1')],
    [
      'JSON with other spacing and key order',
      post('/users', '{"a":1,"b":[1,2]}'),
      post('/users', '{ "b": [1, 2], "a": 1 }'),
    ],
    [
      'GraphQL by operationName and variables, whatever the query text',
      post('/graphql', '{"query":"query Me { me { id } }","operationName":"Me","variables":{"x":1}}'),
      post(
        '/graphql',
        '{"operationName":"Me","variables":{"x":1},"query":"query Me {\\n  me { id name }\\n}"}',
      ),
    ],
    [
      'a form by its pairs',
      post('/f', 'a=1&b=2', 'application/x-www-form-urlencoded'),
      post('/f', 'b=2&a=1', 'application/x-www-form-urlencoded'),
    ],
    ['a token in the query (masked before the key)', get('/me?token=abc'), get('/me?token=xyz')],
    [
      'a password in the body (masked before the key)',
      post('/login', '{"user":"ada","password":"a"}'),
      post('/login', '{"user":"ada","password":"b"}'),
    ],
  ])('matches %s', (_case, a, b) => {
    expect(requestKey(a).fileName).toBe(requestKey(b).fileName)
  })

  it.each([
    ['another method', get('/users'), { ...get('/users'), method: 'DELETE' }],
    [
      'a lowercase method (the browser sends patch as written)',
      { ...get('/x'), method: 'PATCH' },
      { ...get('/x'), method: 'patch' },
    ],
    ['another query value', get('/users?page=1'), get('/users?page=2')],
    ['other JSON data', post('/users', '{"a":1}'), post('/users', '{"a":2}')],
    [
      'other GraphQL variables',
      post('/graphql', '{"query":"q","operationName":"Me","variables":{"x":1}}'),
      post('/graphql', '{"query":"q","operationName":"Me","variables":{"x":2}}'),
    ],
    ['another path', get('/users/1'), get('/users/2')],
  ])('tells apart %s', (_case, a, b) => {
    expect(requestKey(a).fileName).not.toBe(requestKey(b).fileName)
  })

  it('never writes a secret into the file or its name', () => {
    const key = requestKey(post('/login?access_token=s3cr3t', '{"user":"ada","password":"hunter2"}'))
    expect(`${key.fileName} ${key.path} ${key.body}`).not.toMatch(/s3cr3t|hunter2/)
    expect(key.body).toContain('[masked]')
  })

  it.each([
    ['dot-segments', '/../../etc/passwd'],
    ['NUL and control characters', '/a\u0000b\r\n/c'],
    ['backslashes and colons', '/..\\..\\C:\\windows'],
    ['a very long segment', `/${'x'.repeat(10_000)}`],
    ['only punctuation', '/../././//'],
    ['percent-escapes of a slash', '/%2e%2e%2f%2e%2e%2fetc'],
  ])('escapes %s into a plain file name', (_case, path) => {
    const { fileName } = requestKey(get(path))
    expect(fileName).toMatch(/^[A-Za-z0-9_-]+(-[A-Za-z0-9_-]+)*\.[0-9a-f]{16}\.json$/)
    expect(fileName.length).toBeLessThanOrEqual(100)
    expect(fileName).not.toContain('..')
  })
})

describe('slugOf and routeFolderOf', () => {
  it('keeps letters, digits, _ and -, and bounds the length', () => {
    expect(slugOf('/users/../etc/passwd', 60)).toBe('users-etc-passwd')
    expect(slugOf('a'.repeat(100), 10)).toBe('aaaaaaaaaa')
  })

  it('names a route folder after its prefix', () => {
    expect(routeFolderOf('/api')).toBe('api')
    expect(routeFolderOf('/api/v1')).toBe('api-v1')
    expect(routeFolderOf('/')).toBe('root')
  })
})
