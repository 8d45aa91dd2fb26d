import { describe, expect, it } from 'vitest'
import { tarballFileProblems } from '../../scripts/release/tarball-files.mjs'

// The release check's rule for what a tarball holds (scripts/release/tarball-files.mjs): only
// package.json, README.md, LICENSE and dist/. The packed packages pass it in `pnpm release:check`;
// here each way to break it is caught.

const GOOD = [
  'LICENSE',
  'README.md',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/client/index.js',
  'package.json',
]

describe('tarballFileProblems', () => {
  it('passes package.json, README.md, LICENSE and dist/**', () => {
    expect(tarballFileProblems(GOOD)).toEqual([])
  })

  it.each([
    ['a source file', 'src/index.ts'],
    ['a test', 'test/index.test.ts'],
    ['the changelog, which stays in the repository', 'CHANGELOG.md'],
    ['a config at the root', 'tsconfig.json'],
    ['build info beside dist', 'tsconfig.tsbuildinfo'],
    ['a folder named like dist', 'dist-old/index.js'],
  ])('fails on %s (%s), naming it and the fix', (_what, extra) => {
    expect(tarballFileProblems([...GOOD, extra])).toEqual([
      `holds ${extra}: a tarball holds only package.json, README.md, LICENSE and dist/ (narrow \`files\` in its package.json)`,
    ])
  })

  it.each(['README.md', 'LICENSE', 'package.json'])('fails when %s is missing', (missing) => {
    const problems = tarballFileProblems(GOOD.filter((file) => file !== missing))
    expect(problems).toEqual([
      `lacks ${missing}: every package ships its own (add it beside its package.json)`,
    ])
  })

  it('fails on a tarball without a build', () => {
    expect(tarballFileProblems(['LICENSE', 'README.md', 'package.json'])).toEqual([
      'holds nothing under dist/: run pnpm build first',
    ])
  })

  it('reports every problem at once', () => {
    expect(tarballFileProblems(['package.json', 'src/a.ts', 'src/b.ts'])).toHaveLength(5)
  })
})
