import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type FunctionSpan, folderSpans, functionSpans } from './function-length.js'

const packages = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * A function that needs more than a screen is two: at most 80 lines, counted from its
 * signature's first line to its closing brace, so the order a request takes reads as a short
 * function calling named steps.
 */
const MAX_LINES = 80

/**
 * The functions still over the limit, as `file:name` and their length today, signature to closing
 * brace. The list only shrinks: a listed function may not grow, one not listed may not pass the
 * limit, and one split to fit must leave the list, so the next split starts from a true count.
 * The browser scripts (client/) count too: their files are joined into one script each at build
 * (packages/core/scripts/join-client-scripts.mjs).
 */
const STILL_LONG: Readonly<Record<string, number>> = {}

/** Every function of every package's `src/`, named `<package>/src/<file>`. */
function allSpans(): FunctionSpan[] {
  return readdirSync(packages)
    .filter((name) => existsSync(join(packages, name, 'src')))
    .flatMap((name) => folderSpans(packages, join(packages, name, 'src')))
}

/** `file:line name` without the line, so an entry survives edits above the function. */
function keyOf(span: FunctionSpan): string {
  return span.where.replace(/:\d+ /, ':')
}

describe('the functions of packages/*/src', () => {
  const spans = allSpans()
  const longest = new Map<string, number>()
  for (const span of spans) longest.set(keyOf(span), Math.max(longest.get(keyOf(span)) ?? 0, span.lines))

  it(`each fit on a screen (${MAX_LINES} lines at most), the listed ones aside`, () => {
    expect(spans.length).toBeGreaterThan(1000)
    const long = spans
      .filter((span) => span.lines > MAX_LINES && STILL_LONG[keyOf(span)] === undefined)
      .map((span) => `${span.where}: ${span.lines} lines`)
    expect(long).toEqual([])
  })

  it('the listed ones do not grow', () => {
    const grown = Object.entries(STILL_LONG)
      .filter(([key, lines]) => (longest.get(key) ?? 0) > lines)
      .map(([key, lines]) => `${key}: ${longest.get(key)} lines, listed at ${lines}`)
    expect(grown).toEqual([])
  })

  it('a listed one that fits now (or is gone) leaves the list', () => {
    const fixed = Object.keys(STILL_LONG).filter((key) => (longest.get(key) ?? 0) <= MAX_LINES)
    expect(fixed).toEqual([])
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
