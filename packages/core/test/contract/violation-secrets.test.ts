import { describe, expect, it } from 'vitest'
import { loadContract } from '../../src/contract/load-contract.js'

/*
 * A violation quotes the value that broke the schema, and it reaches the log, the HAR and the
 * page: the value of a credential (a body field, parameter or header named like one, by the
 * inspector's rules) is never quoted, while an ordinary value still is.
 */

const document = {
  openapi: '3.1.0',
  info: { title: 'login', version: '1' },
  paths: {
    '/login': {
      post: {
        parameters: [
          { name: 'api_key', in: 'query', schema: { type: 'integer' } },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'x-api-key', in: 'header', schema: { type: 'string', minLength: 40 } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  user: { type: 'string', maxLength: 3 },
                  password: { type: 'string', minLength: 12 },
                  nested: { type: 'object', properties: { accessToken: { enum: ['a', 'b'] } } },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
}

describe('violations of credentials', () => {
  it('name the place and the rule, never the value; other values stay quoted', async () => {
    const contract = await loadContract(document, { cwd: process.cwd() })
    const login = contract.findOperation('POST', '/login')
    const check = login?.checkRequest({
      method: 'POST',
      pathname: '/login',
      search: '?api_key=sk-live-abc123&page=two',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key-hunter-2' },
      body: Buffer.from(
        JSON.stringify({ user: 'adalovelace', password: 'hunter2', nested: { accessToken: 'tok-999' } }),
      ),
    })
    const violations = check?.violations ?? []
    const text = JSON.stringify(violations)
    for (const secret of ['sk-live-abc123', 'hunter2', 'tok-999', 'key-hunter-2'])
      expect(text).not.toContain(secret)
    const at = (pointer: string) => violations.find((one) => one.pointer === pointer)
    expect(at('/password')?.actual).toBe("'[masked]'")
    expect(at('/nested/accessToken')?.message).toContain("'[masked]'")
    expect(at('query.api_key')?.actual).toBe("'[masked]'")
    expect(at('header.x-api-key')?.actual).toBe("'[masked]'")
    // Not credentials: quoted as they came, for the person reading the card.
    expect(at('query.page')?.actual).toBe("'two'")
    expect(at('/user')?.message).toContain('adalovelace')
  })
})
