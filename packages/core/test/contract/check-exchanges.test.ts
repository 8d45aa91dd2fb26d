import { fileURLToPath } from 'node:url'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Contract, ContractOperation } from '../../src/contract/contract-types.js'
import { loadContract } from '../../src/contract/load-contract.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const JSON_HEAD = { 'content-type': 'application/json' }

function json(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value))
}

let petstore: Contract
let bookshop: Contract

beforeAll(async () => {
  petstore = await loadContract('./petstore-3.0.yaml', { cwd: fixtures, maxBodyBytes: 4096 })
  bookshop = await loadContract('bookshop-3.1.yaml', { cwd: fixtures })
})

function operation(contract: Contract, method: string, pathname: string): ContractOperation {
  const found = contract.findOperation(method, pathname)
  if (found === undefined) throw new Error(`no operation for ${method} ${pathname}`)
  return found
}

describe('answers against the 3.0 Petstore', () => {
  it.each([
    ['a valid page', 200, [{ id: 1, name: 'Rex', tag: null }], []],
    ['a required field missing', 200, [{ id: 1 }], [['/0', "must have required property 'name'"]]],
    ['a wrong type', 200, [{ id: 'one', name: 'Rex' }], [['/0/id', 'must be integer, got string']]],
    [
      'a writeOnly field answered',
      200,
      [{ id: 1, name: 'Rex', secret: 's' }],
      [['/0/secret', 'must not be answered: the document marks it writeOnly (sent by the client only)']],
    ],
    [
      'an exclusive minimum (3.0 boolean) reached',
      200,
      [{ id: 1, name: 'Rex', weight: 0 }],
      [['/0/weight', 'must be > 0, got 0']],
    ],
    [
      'two places at once',
      200,
      [{ name: 2 }, { id: 2 }],
      [
        ['/0', "must have required property 'id'"],
        ['/0/name', 'must be string, got integer'],
        ['/1', "must have required property 'name'"],
      ],
    ],
  ])('%s', (_, status, body, expected) => {
    const check = operation(petstore, 'GET', '/v1/pets').checkResponse({
      status,
      headers: { ...JSON_HEAD, 'x-next': '2' },
      body: json(body),
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message]).sort()).toEqual(
      expected,
    )
    expect(
      check.violations.every(
        (violation) => violation.in === 'response' && violation.operation === 'GET /pets',
      ),
    ).toBe(true)
  })

  it('fills expected and actual for a wrong type', () => {
    const check = operation(petstore, 'GET', '/v1/pets/7').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body: json({ id: 7, name: true }),
    })
    expect(check.violations).toEqual([
      {
        in: 'response',
        operation: 'GET /pets/{petId}',
        pointer: '/name',
        message: 'must be string, got boolean',
        expected: 'string',
        actual: 'boolean',
      },
    ])
  })

  it.each([
    [
      'an undeclared status',
      'GET',
      '/v1/pets/7',
      500,
      JSON_HEAD,
      [['status', 'status 500 is not declared by the document (it declares 200, 404)']],
    ],
    ['a range (4XX) status', 'POST', '/v1/pets', 409, { 'content-type': 'application/problem+json' }, []],
    ['the default response', 'GET', '/v1/pets', 503, { 'content-type': 'application/problem+json' }, []],
    [
      'a wrong content type',
      'GET',
      '/v1/pets/7',
      200,
      { 'content-type': 'text/html' },
      [['content-type', "content-type must be application/json, got 'text/html'"]],
    ],
    [
      'no content type',
      'GET',
      '/v1/pets/7',
      200,
      {},
      [['content-type', 'content-type must be application/json, got none']],
    ],
  ])('%s', (_, method, pathname, status, headers, expected) => {
    const body = status < 300 ? json({ id: 7, name: 'Rex' }) : json({ title: 'Nope' })
    const check = operation(petstore, method, pathname).checkResponse({ status, headers, body })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })

  it('asks for a required response header', () => {
    const check = operation(petstore, 'GET', '/v1/pets').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body: json([]),
    })
    expect(check.violations.map((violation) => violation.pointer)).toEqual(['header.x-next'])
  })

  it.each([
    [
      'an empty body where JSON is declared',
      Buffer.alloc(0),
      [['', 'a body is declared by the document (application/json) and none came']],
    ],
    ['a body not collected (not checked)', undefined, []],
  ])('reads %s', (_, body, expected) => {
    const check = operation(petstore, 'GET', '/v1/pets/7').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body,
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })

  it('reads no body from a 204 or a HEAD', () => {
    const check = operation(petstore, 'POST', '/v1/animals').checkResponse({
      status: 204,
      headers: {},
      body: Buffer.alloc(0),
    })
    expect(check).toEqual({ violations: [] })
  })

  it('reads invalid JSON as a violation of the whole body', () => {
    const check = operation(petstore, 'GET', '/v1/pets/7').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body: Buffer.from('{"id": 7,'),
    })
    expect(check.violations).toHaveLength(1)
    expect(check.violations[0]).toMatchObject({
      pointer: '',
      message: expect.stringMatching(/^the application\/json body is not valid JSON/),
    })
  })

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ])('checks a %s answer after decoding it', (encoding, compress) => {
    const headers = { ...JSON_HEAD, 'content-encoding': encoding }
    const check = operation(petstore, 'GET', '/v1/pets/7').checkResponse({
      status: 200,
      headers,
      body: compress(json({ id: 7 })),
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual([
      ['', "must have required property 'name'"],
    ])
  })

  it.each([
    [
      'an event stream',
      '/v1/pets/7/events',
      { 'content-type': 'text/event-stream' },
      Buffer.from('data: {}\n\n'),
      'an event stream (text/event-stream) is not checked',
    ],
    [
      'a body over maxBodyBytes',
      '/v1/pets/7',
      JSON_HEAD,
      json({ id: 7, name: 'x'.repeat(5000) }),
      'the body is over maxBodyBytes (4096 bytes)',
    ],
    [
      'a body over maxBodyBytes once decoded',
      '/v1/pets/7',
      { ...JSON_HEAD, 'content-encoding': 'gzip' },
      gzipSync(json({ id: 7, name: 'x'.repeat(5000) })),
      'the body is over maxBodyBytes (4096 bytes)',
    ],
  ])('skips %s and says so', (_, pathname, headers, body, reason) => {
    const check = operation(petstore, 'GET', pathname).checkResponse({ status: 200, headers, body })
    expect(check).toEqual({ violations: [], skipped: reason })
  })

  it('checks a recursive schema (a circular $ref)', () => {
    const body = json({ name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] })
    const check = operation(petstore, 'GET', '/v1/categories/a').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body,
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual([
      ['/children/0/children/0', "must have required property 'name'"],
    ])
  })
})

describe('requests against the 3.0 Petstore', () => {
  const listHeaders = { 'x-request-id': 'r1' }

  it.each([
    ['a valid query', '?limit=10&tags=a&tags=b', listHeaders, []],
    [
      'a missing required query parameter',
      '',
      listHeaders,
      [['query.limit', "query parameter 'limit' is required by the document and was not sent"]],
    ],
    [
      'a query parameter of the wrong type',
      '?limit=ten',
      listHeaders,
      [['query.limit', "must be integer, got 'ten'"]],
    ],
    [
      'a query parameter out of range',
      '?limit=500',
      listHeaders,
      [['query.limit', "must be <= 100, got '500'"]],
    ],
    [
      'a missing required header',
      '?limit=1',
      {},
      [['header.x-request-id', "header 'x-request-id' is required by the document and was not sent"]],
    ],
  ])('%s', (_, search, headers, expected) => {
    const check = operation(petstore, 'GET', '/v1/pets').checkRequest({
      method: 'GET',
      pathname: '/v1/pets',
      search,
      headers,
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })

  it.each([
    ['/v1/pets/7', []],
    ['/v1/pets/abc', [['path.petId', "must be integer, got 'abc'"]]],
  ])('reads the typed path parameter of %s', (pathname, expected) => {
    const check = operation(petstore, 'GET', pathname).checkRequest({
      method: 'GET',
      pathname,
      search: '',
      headers: {},
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })

  it.each([
    ['a valid new pet', JSON_HEAD, { name: 'Rex', secret: 's' }, []],
    [
      'a readOnly field sent',
      JSON_HEAD,
      { id: 1, name: 'Rex' },
      [['/id', 'must not be sent: the document marks it readOnly (set by the server)']],
    ],
    ['a nullable field as null (3.0 nullable)', JSON_HEAD, { name: 'Rex', tag: null }, []],
    ['a required field missing', JSON_HEAD, { tag: 'a' }, [['', "must have required property 'name'"]]],
    [
      'a body of an undeclared type',
      { 'content-type': 'text/plain' },
      { name: 'Rex' },
      [['content-type', "content-type must be application/json, got 'text/plain'"]],
    ],
    [
      'no body where one is required',
      JSON_HEAD,
      undefined,
      [['', 'a body is required by the document (application/json) and none came']],
    ],
  ])('%s', (_, headers, body, expected) => {
    const request = {
      method: 'POST',
      pathname: '/v1/pets',
      search: '',
      headers,
      body: body === undefined ? undefined : json(body),
    }
    const check = operation(petstore, 'POST', '/v1/pets').checkRequest(request)
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
    expect(check.violations.every((violation) => violation.in === 'request')).toBe(true)
  })

  it.each([
    ['a cat', { petType: 'Cat', huntingSkill: 'lazy' }, []],
    ['a dog by its mapping', { petType: 'dog', packSize: 3 }, []],
    [
      'a cat without what cats need',
      { petType: 'Cat', packSize: 3 },
      [['', "must have required property 'huntingSkill'"]],
    ],
    ['a dog checked as a dog', { petType: 'dog', packSize: -1 }, [['/packSize', 'must be >= 0, got -1']]],
    ['an unknown kind', { petType: 'Fish' }, [['/petType', 'must be one of ["dog","Cat"], got "Fish"']]],
  ])('picks the discriminator schema for %s', (_, body, expected) => {
    const request = {
      method: 'POST',
      pathname: '/v1/animals',
      search: '',
      headers: JSON_HEAD,
      body: json(body),
    }
    const check = operation(petstore, 'POST', '/v1/animals').checkRequest(request)
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })
})

describe('the 3.1 Bookshop', () => {
  const book = { title: 'Dune', subtitle: null, author: { name: 'Frank Herbert' } }

  it('is read as 3.1', () => {
    expect(bookshop.version).toBe('3.1')
    expect(petstore.version).toBe('3.0')
  })

  it.each([
    ['a valid book, subtitle null', book, []],
    [
      'a subtitle of the wrong type',
      { ...book, subtitle: 3 },
      [['/subtitle', 'must be string,null, got integer']],
    ],
    [
      'an author from $defs without a name',
      { ...book, author: {} },
      [['/author', "must have required property 'name'"]],
    ],
    ['a price at the exclusive minimum', { ...book, price: 0 }, [['/price', 'must be > 0, got 0']]],
  ])('checks %s', (_, body, expected) => {
    const check = operation(bookshop, 'GET', '/books/978-0441013593').checkResponse({
      status: 200,
      headers: JSON_HEAD,
      body: json(body),
    })
    expect(check.violations.map((violation) => [violation.pointer, violation.message])).toEqual(expected)
  })

  it('checks a request body against the same schema', () => {
    const request = {
      method: 'POST',
      pathname: '/books',
      search: '',
      headers: JSON_HEAD,
      body: json({ title: '' }),
    }
    const check = operation(bookshop, 'POST', '/books').checkRequest(request)
    expect(check.violations.map((violation) => violation.pointer).sort()).toEqual(['', '', '/title'])
  })
})
