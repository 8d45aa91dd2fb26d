import { fileURLToPath } from 'node:url'
import { type Contract, loadContract, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { beforeAll, describe, expect, it } from 'vitest'
import { backendPath, pagePath } from '../../src/check/check-recordings.js'
import { isAtMaskedValue } from '../../src/check/masked-values.js'
import { rebuildRequest, rebuildResponse } from '../../src/check/recorded-exchange.js'

/**
 * The pure parts of `check --openapi`: a recorded path back to the page's and the backend's (as
 * the proxy maps it), a request rebuilt from its file (the body from its key), an answer as
 * the checker reads it, and a violation at a masked value told apart.
 */

const PETSTORE = fileURLToPath(
  new URL('../../../core/test/contract/fixtures/petstore-3.0.yaml', import.meta.url),
)
let contract: Contract

beforeAll(async () => {
  contract = await loadContract(PETSTORE, { cwd: process.cwd() })
})

function forward(config: Record<string, unknown>) {
  const route = resolveOptions(config as never).routes[0]
  if (route?.kind !== 'forward') throw new Error('not a forwarding route')
  return route
}

describe('recorded paths', () => {
  it.each([
    ['/api', '/pets/7', '/api/pets/7'],
    ['/api', '/pets?limit=2', '/api/pets?limit=2'],
    ['/api', '/', '/api'],
    ['/api', '/?q=1', '/api?q=1'],
    ['/', '/pets', '/pets'],
  ])('prefix %s and recorded %s → the page called %s', (prefix, recorded, page) => {
    expect(pagePath(prefix, recorded)).toBe(page)
  })

  it.each([
    [{ '/api': 'http://127.0.0.1:3000/v1' }, '/api/pets/7?x=1', '/v1/pets/7?x=1'],
    [{ '/api': 'http://127.0.0.1:3000' }, '/api/pets', '/pets'],
    [
      { '/api': { target: 'http://127.0.0.1:3000', pathRewrite: { '^/api': '/api/v2' } } },
      '/api/pets',
      '/api/v2/pets',
    ],
    [
      { '/api': { target: 'http://127.0.0.1:3000', pathRewrite: (path: string) => path } },
      '/api/pets',
      '/api/pets',
    ],
  ])('%j sends %s to %s', async (config, page, backend) => {
    expect(await backendPath(forward(config), 'GET', page, {})).toBe(backend)
  })
})

describe('a request rebuilt from its file', () => {
  it('a JSON body from its key, sent as the media type the operation declares', () => {
    const operation = contract.findOperation('POST', '/v1/pets')
    if (operation === undefined) throw new Error('no operation')
    const rebuilt = rebuildRequest(
      { method: 'POST', path: '/pets', body: 'json {"name":5}' },
      operation,
      '/v1/pets',
      '',
    )
    expect(rebuilt.request.headers['content-type']).toBe('application/json')
    expect(Buffer.from(rebuilt.request.body ?? []).toString()).toBe('{"name":5}')
    expect(operation.checkRequest(rebuilt.request).violations.map((v) => v.pointer)).toEqual(['/name'])
  })

  it.each([
    ['graphql GetPets {}', 'GraphQL'],
    ['multipart a=1', 'multipart'],
    [`sha256 ${'a'.repeat(64)}`, 'hash'],
  ])('%s is not rebuilt: %s', (key, says) => {
    const operation = contract.findOperation('POST', '/v1/pets')
    if (operation === undefined) throw new Error('no operation')
    const rebuilt = rebuildRequest({ method: 'POST', path: '/pets', body: key }, operation, '/v1/pets', '')
    expect(rebuilt.bodyNotChecked).toContain(says)
    expect(rebuilt.request.body).toBeUndefined()
  })
})

describe('an answer as the checker reads it', () => {
  it('JSON data as its text, without a content-encoding it no longer has; base64 bytes as they came', () => {
    const json = rebuildResponse({
      status: 200,
      headers: [
        ['content-encoding', 'gzip'],
        ['content-type', 'application/json'],
      ],
      body: { kind: 'json', json: { id: 1 } },
      chunks: undefined,
      recordedAt: '',
    })
    expect(json.headers).toEqual({ 'content-type': 'application/json' })
    expect(Buffer.from(json.body ?? []).toString()).toBe('{"id":1}')
    const bytes = rebuildResponse({
      status: 200,
      headers: [['content-encoding', 'gzip']],
      body: { kind: 'base64', base64: 'AAE=' },
      chunks: undefined,
      recordedAt: '',
    })
    expect(bytes.headers['content-encoding']).toBe('gzip')
    expect([...(bytes.body ?? [])]).toEqual([0, 1])
  })
})

describe('violations at masked values', () => {
  const violation = (pointer: string) => ({
    in: 'response' as const,
    operation: 'GET /x',
    pointer,
    message: 'm',
  })
  const body = Buffer.from(JSON.stringify({ token: '[masked]', id: 'seven', list: [{ key: '[masked]' }] }))
  it.each([
    ['/token', true],
    ['/list/0/key', true],
    ['/id', false],
    ['', false],
    ['status', false],
  ])('body pointer %j at a masked value: %s', (pointer, masked) => {
    expect(isAtMaskedValue(violation(pointer), { headers: {}, body })).toBe(masked)
  })

  it('query parameters and headers that hold [masked]', () => {
    const side = { search: '?key=%5Bmasked%5D&limit=x', headers: { authorization: 'Bearer [masked]' } }
    expect(isAtMaskedValue(violation('query.key'), side)).toBe(true)
    expect(isAtMaskedValue(violation('query.limit'), side)).toBe(false)
    expect(isAtMaskedValue(violation('header.authorization'), side)).toBe(true)
  })
})
