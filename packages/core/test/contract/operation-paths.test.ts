import { describe, expect, it } from 'vitest'
import { compilePathTemplate, serverBasePaths } from '../../src/contract/operation-paths.js'
import { responseKeyFor } from '../../src/contract/response-status.js'

describe('serverBasePaths', () => {
  it.each<[unknown, string[]]>([
    [undefined, ['']],
    [[], ['']],
    [[{ url: '/' }], ['']],
    [[{ url: 'https://api.example.com/v1/' }], ['/v1']],
    [
      [{ url: 'https://api.example.com' }, { url: '/api/v2' }],
      ['/api/v2', ''],
    ],
    [
      [
        {
          url: 'http://localhost:{port}/{base}',
          variables: { port: { default: '8080' }, base: { default: 'beta' } },
        },
      ],
      ['/beta'],
    ],
    [[{ url: 'v1' }], ['/v1']],
  ])('%j → %j', (servers, paths) => {
    expect(serverBasePaths(servers)).toEqual(paths)
  })
})

describe('compilePathTemplate', () => {
  it.each<[string, string[], string, Record<string, string> | undefined]>([
    ['/pets/{id}', [''], '/pets/7', { id: '7' }],
    ['/pets/{id}', ['/v1'], '/v1/pets/7', { id: '7' }],
    ['/pets/{id}', ['/v1'], '/pets/7', undefined],
    ['/pets/{id}', [''], '/pets/7/toys', undefined],
    ['/files/{name}.json', [''], '/files/a%20b.json', { name: 'a b' }],
    ['/a/{x}/b/{y}', [''], '/a/1/b/2', { x: '1', y: '2' }],
    ['/', ['/v1'], '/v1', {}],
    ['/', ['/v1'], '/v1/', {}],
  ])('%s under %j reads %s as %j', (template, bases, pathname, params) => {
    expect(compilePathTemplate(template, bases).match(pathname)).toEqual(params)
  })

  it('ranks literal segments before templated ones', () => {
    expect(compilePathTemplate('/users/me', ['']).rank).toBe('00')
    expect(compilePathTemplate('/users/{id}', ['']).rank).toBe('01')
    expect(compilePathTemplate('/{kind}/me', ['']).rank).toBe('10')
  })
})

describe('responseKeyFor', () => {
  it.each<[number, string[], string | undefined]>([
    [200, ['200', '2XX', 'default'], '200'],
    [204, ['200', '2XX', 'default'], '2XX'],
    [204, ['200', '2xx'], '2xx'],
    [500, ['200', '2XX', 'default'], 'default'],
    [500, ['200', '4XX'], undefined],
  ])('%i in %j → %s', (status, keys, key) => {
    expect(responseKeyFor(status, keys)).toBe(key)
  })
})
