import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type FunctionSpan, folderSpans, functionSpans } from './function-length.js'

const packages = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * A function that needs more than a screen is two: at most 80 lines, counted from its
 * signature's first line to its closing brace, so the order a request takes reads as a short
 * function calling named steps. The browser scripts (client/, the stand-ins' panels) count too:
 * their files are joined into one script each at build (packages/core/scripts/join-client-scripts.mjs).
 */
const MAX_LINES = 80

/** Every function of every package's `src/`, named `<package>/src/<file>`. */
function allSpans(): FunctionSpan[] {
  return readdirSync(packages)
    .filter((name) => existsSync(join(packages, name, 'src')))
    .flatMap((name) => folderSpans(packages, join(packages, name, 'src')))
}

describe('the functions of packages/*/src', () => {
  it(`each fit on a screen (${MAX_LINES} lines at most)`, () => {
    const spans = allSpans()
    expect(spans.length).toBeGreaterThan(1000)
    const long = spans
      .filter((span) => span.lines > MAX_LINES)
      .map((span) => `${span.where}: ${span.lines} lines`)
    expect(long).toEqual([])
  })
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

  it('counts from the first line of the signature, a long parameter list included', () => {
    const text = [
      '/** Doc. */',
      'export async function spread(',
      '  a: number,',
      '  b: number,',
      '): Promise<number> {',
      '  return a + b',
      '}',
    ].join('\n')
    expect(functionSpans('s.ts', text)).toEqual([{ where: 's.ts:2 spread', lines: 6 }])
  })
})
