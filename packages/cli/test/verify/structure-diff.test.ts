import { describe, expect, it } from 'vitest'
import { answerChanges } from '../../src/verify/answer-changes.js'
import { recordedContent } from '../../src/verify/answer-content.js'
import { structureChanges, valueChanges } from '../../src/verify/structure-diff.js'

/** The drift check's comparison rules, one case per rule. */

const texts = (recorded: unknown, live: unknown) =>
  structureChanges(recorded, live).map((change) => change.text)

describe('structureChanges', () => {
  it.each([
    ['the same structure, other values', { a: 1, b: 'x' }, { a: 2, b: 'y' }, []],
    ['a field missing', { a: 1, email: 'e' }, { a: 1 }, ['body.email missing']],
    ['a field added', { a: 1 }, { a: 1, b: true }, ['body.b added']],
    ['a type changed', { age: 3 }, { age: '3' }, ['body.age number → string']],
    ['an object became an array', { items: {} }, { items: [] }, ['body.items object → array']],
    ['null matches any type', { m: null, n: 1 }, { m: 'x', n: null }, []],
    ['an empty array has no structure', { tags: ['a'] }, { tags: [] }, []],
    ['an empty recorded array neither', [], [{ id: 1 }], []],
    [
      'arrays: the union of the elements',
      [{ id: 1 }, { id: 2, nick: 'b' }],
      [{ id: 3, nick: 'c' }, { id: 4 }],
      [],
    ],
    [
      'a field no element has any more',
      [{ id: 1 }, { id: 2, nick: 'b' }],
      [{ id: 3 }],
      ['body[].nick missing'],
    ],
    [
      'nested',
      { user: { address: { zip: 1 } } },
      { user: { address: { zip: '1' } } },
      ['body.user.address.zip number → string'],
    ],
    ['a name that is not an identifier', { 'a-b': 1 }, {}, ['body["a-b"] missing']],
    ['the top level', { a: 1 }, 'text', ['body object → string']],
  ])('%s', (_name, recorded, live, expected) => {
    expect(texts(recorded, live)).toEqual(expected)
  })
})

describe('valueChanges', () => {
  it('names each scalar that changed and each array length', () => {
    const changes = valueChanges({ name: 'Ann', tags: ['a', 'b'], n: 1 }, { name: 'Bob', tags: ['a'], n: 1 })
    expect(changes.map((change) => change.text)).toEqual([
      'body.name "Ann" → "Bob"',
      'body.tags length 2 → 1',
    ])
  })
})

describe('answerChanges', () => {
  const answer = (status: number, type: string, json: unknown) =>
    recordedContent({
      status,
      headers: [['content-type', type]],
      body: { kind: 'json', json },
      chunks: undefined,
      recordedAt: '',
    })

  it.each([
    [
      'the same class is no drift',
      answer(200, 'application/json', {}),
      answer(204, 'application/json', {}),
      false,
      [],
    ],
    [
      'its exact value with --values',
      answer(200, 'application/json', {}),
      answer(204, 'application/json', {}),
      true,
      ['status 200 → 204'],
    ],
    [
      'another class, bodies left alone',
      answer(200, 'application/json', { a: 1 }),
      answer(404, 'application/json', {}),
      false,
      ['status 200 → 404'],
    ],
    [
      'another media type',
      answer(200, 'application/json', {}),
      answer(200, 'text/html', {}),
      false,
      ['content-type application/json → text/html'],
    ],
  ])('%s', (_name, recorded, live, values, expected) => {
    expect(answerChanges(recorded, live, values).map((change) => change.text)).toEqual(expected)
  })
})
