import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv, type AnySchema } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { type DocumentOperation, loadDocumentMockAnswer } from '../../src/contract/mock-from-document.js'
import { readMockPreference } from '../../src/contract/prefer-header.js'
import {
  CREATE_PET_30,
  DELETE_PET,
  GET_PET_30,
  GET_PET_31,
  LIST_PETS_30,
  PET_30,
  PET_31,
  REPLACE_PET_31,
} from './fixtures/mock-operations.js'

// Each generated or picked body is checked with Ajv against the response's schema, in the
// dialect of its document: OpenAPI 3.0's (Ajv's draft-07 with `nullable`) or 3.1's (2020-12).
const ajv30 = new Ajv({ strict: false, allErrors: true })
const ajv31 = new Ajv2020({ strict: false, allErrors: true })
formats.default(ajv30)
formats.default(ajv31)

/** The errors of `body` (JSON) against `schema`, in the operation's dialect: `[]` when it is valid. */
function violations(body: string, schema: AnySchema, version: DocumentOperation['version']): unknown[] {
  const validate = (version === '3.0' ? ajv30 : ajv31).compile(schema)
  return validate(JSON.parse(body)) ? [] : (validate.errors ?? [])
}

const op30 = (definition: object): DocumentOperation => ({ definition: definition as never, version: '3.0' })
const op31 = (definition: object): DocumentOperation => ({ definition: definition as never, version: '3.1' })

describe('the answer from the document', () => {
  it('is the named example that Prefer asks for, valid against the schema', async () => {
    const answer = await loadDocumentMockAnswer(op30(CREATE_PET_30), 'example=dog')
    expect(answer).toEqual({
      status: 201,
      contentType: 'application/json',
      body: '{"id":2,"name":"Rex","tag":"good"}',
      example: 'dog',
    })
    expect(violations(answer?.body as string, PET_30, '3.0')).toEqual([])
  })

  it('is the first example without a Prefer, or with an example the document does not have', async () => {
    for (const prefer of [undefined, 'example=bird', 'respond-async, wait=5']) {
      const answer = await loadDocumentMockAnswer(op30(CREATE_PET_30), prefer)
      expect(answer).toMatchObject({ status: 201, example: 'cat', body: '{"id":1,"name":"Tom","tag":null}' })
      expect(violations(answer?.body as string, PET_30, '3.0')).toEqual([])
    }
  })

  it("prefers the media type's example to its examples, and either to the schema's", async () => {
    const list = await loadDocumentMockAnswer(op30(LIST_PETS_30))
    expect(list).toEqual({ status: 200, contentType: 'application/json', body: '[{"id":3,"name":"Media"}]' })
    expect((await loadDocumentMockAnswer(op30(LIST_PETS_30), 'example=one'))?.body).toBe(
      '[{"id":4,"name":"Named"}]',
    )
    const onlySchema = {
      responses: {
        '200': {
          description: 'x',
          content: {
            'application/json': {
              schema: { ...PET_31, examples: [{ id: 7, name: 'Ada', owner: { email: 'a@b.test' } }] },
            },
          },
        },
      },
    }
    const fromSchema = await loadDocumentMockAnswer(op31(onlySchema))
    expect(fromSchema?.body).toBe('{"id":7,"name":"Ada","owner":{"email":"a@b.test"}}')
    expect(violations(fromSchema?.body as string, PET_31, '3.1')).toEqual([])
  })

  it('is generated from a 3.0 schema when there is no example: readOnly fields in, writeOnly out', async () => {
    const answer = await loadDocumentMockAnswer(op30(GET_PET_30))
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json' })
    expect(answer).not.toHaveProperty('example')
    const body = JSON.parse(answer?.body as string)
    expect(body).toHaveProperty('id')
    expect(body).not.toHaveProperty('password')
    expect(violations(answer?.body as string, PET_30, '3.0')).toEqual([])
  })

  it('is generated from a 3.1 schema (type lists, patterns, formats), in its JSON media type', async () => {
    const answer = await loadDocumentMockAnswer(op31(REPLACE_PET_31))
    expect(answer).toMatchObject({ status: 200, contentType: 'application/problem+json; charset=utf-8' })
    const body = JSON.parse(answer?.body as string)
    expect(Object.keys(body).sort()).toEqual(['id', 'name', 'owner', 'tag'])
    expect(violations(answer?.body as string, PET_31, '3.1')).toEqual([])
    // A body that breaks the schema (id below 1, no owner, a name off the pattern) fails: the check bites.
    expect(violations('{"id":0,"name":"x"}', PET_31, '3.1')).not.toEqual([])
  })

  it.each([
    ['201 over 202, the first JSON media type over XML', CREATE_PET_30, undefined, 201],
    ['a 2XX range as 200', GET_PET_30, undefined, 200],
    ['2XX (200) over 204', GET_PET_31, undefined, 200],
    ['code=202 from Prefer', CREATE_PET_30, 'code=202', 202],
    ['code=404 from Prefer, declared', CREATE_PET_30, 'code=404, example=cat', 404],
    ['code=503 from Prefer, by its 5XX range', GET_PET_31, 'code=503', 503],
    ['code=418 from Prefer, undeclared: the lowest 2xx', CREATE_PET_30, 'code=418', 201],
  ])('chooses %s', async (_title, definition, prefer, status) => {
    expect((await loadDocumentMockAnswer(op30(definition), prefer))?.status).toBe(status)
  })

  it('has no body for a response without content, and none at all without a 2xx', async () => {
    expect(await loadDocumentMockAnswer(op30(CREATE_PET_30), 'code=404')).toEqual({
      status: 404,
      contentType: '',
      body: '',
    })
    expect(await loadDocumentMockAnswer(op30(DELETE_PET))).toBeUndefined()
    expect(await loadDocumentMockAnswer(op30({}))).toBeUndefined()
  })
})

describe('the Prefer header, as Prism reads it', () => {
  it.each([
    [undefined, {}],
    ['example=cat', { example: 'cat' }],
    ['code=201, example="new pet"', { code: 201, example: 'new pet' }],
    ['Code=404;example=missing', { code: 404, example: 'missing' }],
    ['code=abc, code=999, example=', {}],
    ['return=minimal, code=200, code=201', { code: 200 }],
  ])('%s', (prefer, expected) => {
    expect(readMockPreference(prefer)).toEqual(expected)
  })
})

describe('openapi-sampler', () => {
  it('is imported by one file of the core, dynamically, so a route that never generates a body never loads it', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url))
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    )
    const importers = files.filter((file) =>
      readFileSync(`${src}/${file}`, 'utf8').includes("'openapi-sampler'"),
    )
    expect(importers).toEqual(['contract/sample-schema.ts'])
    const text = readFileSync(`${src}/contract/sample-schema.ts`, 'utf8')
    expect(text).toContain("import('openapi-sampler')")
    expect(text).not.toMatch(/^import .*'openapi-sampler'/m)
  })
})
