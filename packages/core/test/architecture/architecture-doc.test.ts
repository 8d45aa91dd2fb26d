import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../..', import.meta.url))

/** ARCHITECTURE.md is the map that fits one screen; each folder's details open its main file. */
const MAX_WORDS = 1200

/**
 * Where a path the page names may start: the repository's root, or a package's `src/` (the
 * page names the core's files from `packages/core/src`, as its layers table does).
 */
const BASES = ['', 'packages/core/src', 'packages/cli/src']

/** Words as `wc -w` counts them: runs of non-space, code and tables included. */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length
}

/**
 * Every file path the page names, backticked or in its diagram: a token with a folder and a
 * file name with a source extension (`forward/relay.ts`, `packages/core/scripts/join-client-scripts.mjs`).
 */
function namedFiles(text: string): string[] {
  const paths = text.match(/[\w@.-]+(?:\/[\w@.-]+)*\/[\w.-]+\.(?:ts|mts|mjs|js|json)\b/g) ?? []
  return [...new Set(paths)]
}

/**
 * The named files found under none of {@link BASES}: a stale path (`forward/upstream-relay.ts`),
 * or a folder that moved (`recordings/…`, now `stand-ins/recordings/…`). A file of a user's
 * project, named from its dotted folder (`.storybook/middleware.js`), is not checked.
 */
function missingFiles(text: string, exists: (path: string) => boolean): string[] {
  return namedFiles(text)
    .filter((path) => !path.startsWith('.'))
    .filter((path) => !BASES.some((base) => exists(join(root, base, path))))
}

describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8')

  it(`stays at most ${MAX_WORDS} words`, () => {
    expect(wordCount(text)).toBeLessThanOrEqual(MAX_WORDS)
  })

  it('names only files that exist', () => {
    expect(namedFiles(text).length).toBeGreaterThan(20)
    expect(missingFiles(text, existsSync)).toEqual([])
  })
})

describe('the checks themselves', () => {
  it('count words as wc -w does', () => {
    expect(wordCount('| `http/` | a -> b |\n\n```\n  x\n```\n')).toBe(10)
  })

  it('find a stale path, backticked or in a diagram, from the root or a package src', () => {
    const page =
      '1. `forward/relay.ts` then `forward/upstream-relay.ts`\n```\nproxy/fetch-inspector.ts -> x\n```\n`test/projects/test-projects.ts` and `.storybook/middleware.js`'
    expect(missingFiles(page, existsSync)).toEqual(['forward/upstream-relay.ts', 'proxy/fetch-inspector.ts'])
  })
})
