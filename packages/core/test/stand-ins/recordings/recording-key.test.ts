import { describe, expect, it } from 'vitest'
import { type KeyedRequest, requestKey } from '../../../src/stand-ins/recordings/recording-key.js'

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
      'a password in the body in its file name (the file tells it apart by a verifier)',
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

describe('the secret of a key', () => {
  const material = (request: KeyedRequest, rules?: { mask: boolean; maskNames: string[] }) => {
    const { secret } = requestKey(request, rules)
    return secret?.kind === 'value' ? secret.material : secret?.kind
  }
  const form = 'application/x-www-form-urlencoded'
  const withAuth = (authorization: string): KeyedRequest => ({ ...get('/me'), authorization })
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`

  it.each([
    [
      'a password in a JSON body',
      post('/login', '{"user":"ada","password":"a"}'),
      post('/login', '{"user":"ada","password":"b"}'),
    ],
    [
      'a nested one',
      post('/login', '{"auth":{"pwd":1,"credentials":{"newPassword":"a"}}}'),
      post('/login', '{"auth":{"pwd":1,"credentials":{"newPassword":"b"}}}'),
    ],
    [
      'a client secret in a form body',
      post('/token', 'client_id=x&client_secret=a', form),
      post('/token', 'client_id=x&client_secret=b', form),
    ],
    ['Basic credentials', withAuth(basic('ada:a')), withAuth(basic('ada:b'))],
    ['the Basic user', withAuth(basic('ada:a')), withAuth(basic('bob:a'))],
  ])('tells apart %s, under one file name that holds neither', (_case, a, b) => {
    const [keyA, keyB] = [requestKey(a), requestKey(b)]
    expect(keyA.fileName).toBe(keyB.fileName)
    expect(material(a)).toEqual(expect.any(String))
    expect(material(a)).not.toBe(material(b))
    expect(material(a)).toBe(material({ ...a }))
    for (const key of [keyA, keyB])
      expect(`${key.fileName} ${key.path} ${key.body}`).not.toMatch(/"a"|"b"|=a|=b|ada:/)
  })

  it('reads a multipart form (a FormData login) by its fields, not its boundary, its password out of the key', () => {
    const multipart = (boundary: string, password: string, file = 'a,b') =>
      post(
        '/login',
        [
          `--${boundary}`,
          'Content-Disposition: form-data; name="user"',
          '',
          'ada',
          `--${boundary}`,
          'Content-Disposition: form-data; name="password"',
          '',
          password,
          `--${boundary}`,
          'Content-Disposition: form-data; name="sheet"; filename="s.csv"',
          'Content-Type: text/csv',
          '',
          file,
          `--${boundary}--`,
          '',
        ].join('\r\n'),
        `multipart/form-data; boundary=${boundary}`,
      )
    const right = multipart('----WebKitFormBoundaryA1', 'hunter2')
    const key = requestKey(right)
    expect(key.fileName).toBe(requestKey(multipart('----WebKitFormBoundaryZ9', 'other')).fileName)
    expect(`${key.fileName} ${key.path} ${key.body}`).not.toContain('hunter2')
    expect(key.body).toMatch(/^multipart .*user=ada/)
    expect(material(right)).toContain('hunter2')
    expect(material(multipart('----WebKitFormBoundaryZ9', 'hunter2'))).toBe(material(right))
    expect(requestKey(multipart('x', 'hunter2', 'c,d')).fileName).not.toBe(key.fileName)
  })

  it('compares JSON secrets whatever the key order and spacing', () => {
    expect(material(post('/login', '{"user":"ada","password":"a","otp":"1"}'))).toBe(
      material(post('/login', '{ "otp": "1", "password": "a", "user": "ada" }')),
    )
  })

  it.each([
    ['a Bearer token', withAuth('Bearer t1')],
    ['no credentials', get('/me')],
    ['a refresh token in the body', post('/refresh', '{"refresh_token":"r1"}')],
    [
      'an access token, a CSRF token and a code in a form',
      post('/cb', 'access_token=a&csrf_token=b&code=c', form),
    ],
    ['a body with no secret', post('/users', '{"name":"ada"}')],
  ])('has none for %s (rotating credentials match as before)', (_case, request) => {
    expect(requestKey(request).secret).toBeUndefined()
  })

  it('counts the field names recordings.mask adds, and keeps them out of the key', () => {
    const rules = { mask: true, maskNames: ['pin'] }
    const a = post('/unlock', '{"door":1,"pin":"1234"}')
    const key = requestKey(a, rules)
    expect(key.body).not.toContain('1234')
    expect(material(a, rules)).toContain('1234')
    expect(material(post('/unlock', '{"door":1,"pin":"9999"}'), rules)).not.toBe(material(a, rules))
  })

  it('masks the key whatever recordings.mask says (mask: false is about the answers written)', () => {
    const key = requestKey(post('/login?token=t', '{"password":"hunter2"}'), { mask: false, maskNames: [] })
    expect(`${key.fileName} ${key.path} ${key.body}`).not.toMatch(/hunter2|token=t/)
    expect(key.secret?.kind).toBe('value')
  })

  it('reads a secret already masked (an inspector HAR) as masked', () => {
    expect(material(post('/login', '{"password":"[masked]"}'))).toBe('masked')
    expect(material(withAuth('Basic [masked]'))).toBe('masked')
    expect(material(post('/login', 'user=ada&password=%5Bmasked%5D', form))).toBe('masked')
  })
})
