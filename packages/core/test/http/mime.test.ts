import { describe, expect, it } from 'vitest'
import { isJsonMimeType, mimeEssence } from '../../src/http/mime.js'

describe('mimeEssence (WHATWG "parse a MIME type")', () => {
  it.each<[value: string | undefined, essence: string | null]>([
    ['text/plain', 'text/plain'],
    ['Text/Plain ; charset=utf-8', 'text/plain'],
    [' text/plain\t', 'text/plain'],
    ['multipart/form-data; boundary="a;b"', 'multipart/form-data'],
    ['text/plain;', 'text/plain'],
    ['text/plain, text/plain', null],
    ['text /plain', null],
    ['text/', null],
    ['/plain', null],
    ['', null],
    [undefined, null],
  ])('%j → %j', (value, essence) => {
    expect(mimeEssence(value)).toBe(essence)
  })
})

describe('isJsonMimeType', () => {
  it.each<[value: string | undefined, json: boolean]>([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['text/json', true],
    ['application/problem+json', true],
    ['application/json-seq', false],
    ['text/plain', false],
    ['application/json, text/plain', false],
    [undefined, false],
  ])('%j → %s', (value, json) => {
    expect(isJsonMimeType(value)).toBe(json)
  })
})
