import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../../../src/adapter.js'
import { resolveMocks } from '../../../../src/stand-ins/route-mocks/options/resolve-route-mocks.js'
import { mockAnswerOf } from '../../../../src/stand-ins/route-mocks/options/route-mock-answer.js'

const AT = "routes['/api'].mocks"

describe('resolveMocks', () => {
  it('resolves keys, true and a folder', () => {
    const resolved = resolveMocks({ 'get /users/:id': { json: { id: 1 } }, '/health': () => undefined }, AT)
    expect(resolved?.rules.map((rule) => [rule.key, rule.method, rule.pattern.names])).toEqual([
      ['get /users/:id', 'GET', ['id']],
      ['/health', undefined, []],
    ])
    expect(resolveMocks(true, AT)).toEqual({ rules: [], dir: undefined })
    expect(resolveMocks('test/mocks', AT)).toEqual({ rules: [], dir: 'test/mocks' })
    expect(resolveMocks(false, AT)).toBeUndefined()
  })

  it.each([
    [{ 'users/:id': { json: 1 } }, `${AT}['users/:id'] is not a path pattern`],
    [
      { 'GET /a': { status: 99 } },
      `${AT}['GET /a'].status must be a whole number from 200 to 599, got a number (99)`,
    ],
    [{ 'GET /a': { jsno: {} } }, `${AT}['GET /a'].jsno is not an answer field (did you mean \`json\`?)`],
    [{ 'GET /a': { json: 1, body: 'x' } }, `${AT}['GET /a'].body is set beside json: give one of them`],
    [
      { 'GET /a': { status: 204, body: 'x' } },
      `${AT}['GET /a'].body must be left out: a 204 answer has no content`,
    ],
    [
      { 'GET /a': { headers: { 'content-length': '3' } } },
      `${AT}['GET /a'].headers['content-length'] is set by the dev server`,
    ],
    [
      { 'GET /a': { headers: { 'x-a': 'b\r\nc' } } },
      `${AT}['GET /a'].headers['x-a'] must be a string (or strings) without CR, LF or NUL`,
    ],
    [
      { 'GET /a': 'hello' },
      `${AT}['GET /a'] must be an object { status, headers, json | body }, got a string`,
    ],
    [42, `${AT} must be an object of 'METHOD /path' → answer or function`],
    ['', `${AT} must be a folder path`],
  ])('refuses %j at start-up, naming the option, with a fix that resolves', (value, message) => {
    let error: Error | undefined
    try {
      resolveMocks(value, AT)
    } catch (thrown) {
      error = thrown as Error
    }
    expect(error?.message).toContain(message)
    const fix = /Fix it like this: (.*)$/m.exec(error?.message ?? '')?.[1] ?? ''
    const example = new Function(`return (${fix})`)() as { mocks: unknown }
    expect(resolveMocks(example.mocks, AT)?.rules).toHaveLength(1)
  })

  it('is a forwarding route option: refused on a mock route, and named by did-you-mean', () => {
    expect(() => resolveOptions({ '/api': { mock: true, mocks: true } })).toThrow(
      "routes['/api'].mocks has no effect on a mock route",
    )
    expect(() =>
      resolveOptions({ '/api': { target: 'http://localhost:3000', mock: undefined, mokcs: true } as never }),
    ).toThrow(/did you mean `mocks`/)
  })

  it('completes an answer: status 200, the Content-Type its body calls for, bytes as given', () => {
    expect(mockAnswerOf({ json: { a: 1 } })).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from('{"a":1}'),
    })
    expect(
      mockAnswerOf({ body: 'hi', headers: { 'Content-Type': 'text/html', 'Set-Cookie': ['a=1', 'b=2'] } }),
    ).toEqual({
      status: 200,
      headers: { 'content-type': 'text/html', 'set-cookie': ['a=1', 'b=2'] },
      body: Buffer.from('hi'),
    })
    expect(mockAnswerOf({ status: 204 })).toEqual({ status: 204, headers: {}, body: Buffer.alloc(0) })
  })
})
