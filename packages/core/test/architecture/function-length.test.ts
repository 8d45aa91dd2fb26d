import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { folderSpans, functionSpans } from './function-length.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/** A function that needs more than a screen is two (STYLE.md): about 80 lines. */
const MAX_LINES = 80

/** The folders a request's path runs through, which must read one step at a time. */
const FOLDERS = ['forward', 'proxy']

describe('the functions of the request path', () => {
  for (const folder of FOLDERS) {
    it(`in ${folder}/ each fit on a screen (${MAX_LINES} lines at most)`, () => {
      const spans = folderSpans(src, `${src}/${folder}`)
      expect(spans.length).toBeGreaterThan(20)
      const long = spans
        .filter((span) => span.lines > MAX_LINES)
        .map((span) => `${span.where}: ${span.lines} lines`)
      expect(long).toEqual([])
    })
  }
})

describe('the measure itself', () => {
  it('counts a body from its brace to its brace, nested functions included', () => {
    const text = [
      'export function outer(a: number) {',
      '  const inner = () => {',
      '    return a',
      '  }',
      '  return inner()',
      '}',
      'class Relay {',
      '  constructor() {}',
      '  onData(chunk: Buffer): boolean {',
      '    return chunk.length > 0',
      '  }',
      '}',
    ].join('\n')
    expect(functionSpans('a.ts', text)).toEqual([
      { where: 'a.ts:1 outer', lines: 6 },
      { where: 'a.ts:2 inner', lines: 3 },
      { where: 'a.ts:8 constructor', lines: 1 },
      { where: 'a.ts:9 onData', lines: 3 },
    ])
  })

  it('finds a function longer than the limit', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const [span] = functionSpans('long.ts', `function long() {\n${body}\n}`)
    expect(span?.lines).toBe(MAX_LINES + 2)
  })
})
