import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { CorsDevProxyError } from '../../src/config/errors.js'
import type { Contract } from '../../src/contract/contract-types.js'
import { loadContract } from '../../src/contract/load-contract.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))

/** A small 3.0 document as an object, with one schema or path given by the case. */
function document30(schema: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
      },
    },
    ...extra,
  }
}

async function loadError(document: string | object, option?: string): Promise<CorsDevProxyError> {
  const error = await loadContract(document, { cwd: fixtures, option }).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(CorsDevProxyError)
  return error as CorsDevProxyError
}

describe('loadContract refuses what it cannot check', () => {
  it('refuses Swagger 2.0 and says how to convert it', async () => {
    const error = await loadError('petstore-swagger-2.0.json', "routes['/api'].openapi")
    expect(error.option).toBe("routes['/api'].openapi")
    expect(error.message).toContain('a Swagger 2.0 document: only OpenAPI 3.0 and 3.1 are checked')
    expect(error.message).toContain('npx swagger2openapi petstore-swagger-2.0.json')
  })

  it.each<[string, string | object, RegExp]>([
    ['a missing file', './nope.yaml', /openapi cannot read \.\/nope\.yaml: /],
    [
      'a $ref to nothing',
      document30({ $ref: '#/components/schemas/Missing' }),
      /openapi cannot resolve a \$ref of the document object: .*#\/components\/schemas\/Missing/,
    ],
    [
      'an invalid schema',
      document30({ type: 'object', required: 'name' }),
      /openapi has an invalid schema at the document object#\/paths\/~1things\/get\/responses\/200\/content\/application~1json\/schema: /,
    ],
    [
      'an invalid parameter schema of a path item',
      {
        ...document30({}),
        paths: {
          '/things/{id}': {
            parameters: [{ name: 'id', in: 'path', schema: { type: 'whole' } }],
            get: { responses: {} },
          },
        },
      },
      /openapi has an invalid schema at the document object#\/paths\/~1things~1\{id\}\/parameters\/0\/schema: /,
    ],
    [
      'an unknown openapi version',
      { ...document30({}), openapi: '4.0.0' },
      /openapi cannot read the document object: Unsupported OpenAPI version: 4\.0\.0/,
    ],
  ])('refuses %s, naming the document', async (_, document, message) => {
    const error = await loadError(document)
    expect(error.message).toMatch(message)
    expect(error.message).toContain("Fix it like this: openapi: './openapi.yaml'")
  })

  it('reads a document from a file: URL', async () => {
    const contract = await loadContract(new URL('./fixtures/bookshop-3.1.yaml', import.meta.url), {
      cwd: '/',
    })
    expect(contract.operations.map((operation) => operation.id)).toEqual(['GET /books/{isbn}', 'POST /books'])
  })

  it('does not change a document given as an object', async () => {
    const given = document30(
      { oneOf: [{ $ref: '#/components/schemas/A' }], discriminator: { propertyName: 'kind' } },
      {
        components: { schemas: { A: { type: 'object', nullable: true } } },
      },
    )
    const before = structuredClone(given)
    const contract = await loadContract(given, { cwd: fixtures })
    expect(given).toEqual(before)
    expect(contract.operations.map((operation) => operation.id)).toEqual(['GET /things'])
  })
})

describe('the operations of a document', () => {
  let petstore: Contract
  beforeAll(async () => {
    petstore = await loadContract('petstore-3.0.yaml', { cwd: fixtures })
  })

  it('lists each with its id, declared statuses and dereferenced definition', () => {
    const show = petstore.operations.find((operation) => operation.id === 'GET /pets/{petId}')
    expect(show).toMatchObject({ method: 'GET', pathTemplate: '/pets/{petId}', statuses: ['200', '404'] })
    const definition = show?.definition as {
      responses: Record<string, { content: Record<string, { schema: unknown }> }>
    }
    const schema = definition.responses['200']?.content['application/json']?.schema
    expect(schema).toMatchObject({ type: 'object', required: ['id', 'name'] })
    expect(petstore.operations.find((operation) => operation.id === 'POST /pets')?.statuses).toEqual([
      '201',
      '4XX',
    ])
  })

  it.each([
    ['GET', '/v1/pets', 'GET /pets'],
    ['get', '/v1/pets/', 'GET /pets'],
    ['GET', '/api/v2/pets/12', 'GET /pets/{petId}'],
    ['GET', '/v1/pets/mine', 'GET /pets/mine'],
    ['GET', '/v1/pets/7/events', 'GET /pets/{petId}/events'],
    ['GET', '/v1/pets/%E2%9C%93', 'GET /pets/{petId}'],
    ['POST', '/v1/pets', 'POST /pets'],
    ['DELETE', '/v1/pets', undefined],
    ['GET', '/pets', undefined],
    ['GET', '/v10/pets', undefined],
    ['GET', '/v1/owners', undefined],
  ])('finds %s %s through the servers base paths: %s', (method, pathname, id) => {
    expect(petstore.findOperation(method, pathname)?.id).toBe(id)
  })

  it('prefers a literal segment over a template whatever the document order', async () => {
    const ok = { responses: { '200': { description: 'ok' } } }
    const contract = await loadContract(
      {
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {
          '/users/{id}': { get: ok },
          '/users/me': { get: ok },
          '/{kind}/me': { get: ok },
          '/': { get: ok },
        },
      },
      { cwd: fixtures },
    )
    expect(contract.findOperation('GET', '/users/me')?.id).toBe('GET /users/me')
    expect(contract.findOperation('GET', '/users/7')?.id).toBe('GET /users/{id}')
    expect(contract.findOperation('GET', '/teams/me')?.id).toBe('GET /{kind}/me')
    expect(contract.findOperation('GET', '/')?.id).toBe('GET /')
  })
})
