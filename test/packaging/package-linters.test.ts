import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPackage } from '../../scripts/pack-local.mjs'
import { attwProblems, publintProblems } from '../../scripts/release/package-linters.mjs'

// publint --strict and attw's esm-only profile as the release check runs them
// (scripts/release/package-linters.mjs): on tarballs made here, one right and three wrong, and on
// the core's real tarball, whose CommonJS-only findings the profile leaves out.

const root = fileURLToPath(new URL('../../', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'cdp-linters-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Writes `files` under `package/` and tars them as npm does; returns the tarball's path. */
function tarball(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'package', path)), { recursive: true })
    writeFileSync(join(dir, 'package', path), text)
  }
  execFileSync('tar', ['-czf', `${dir}.tgz`, '-C', dir, 'package'])
  return `${dir}.tgz`
}

/** An ESM-only package with a root entry and an `./adapter` subpath, as ours are. */
function manifest(exports: Record<string, unknown>): string {
  const base = {
    name: 'esm-only-fixture',
    version: '1.0.0',
    license: 'MIT',
    type: 'module',
    sideEffects: false,
  }
  return JSON.stringify({ ...base, engines: { node: '>=20.19' }, files: ['dist'], exports })
}

const DIST = {
  LICENSE: 'MIT\n',
  'README.md': '# esm-only-fixture\n',
  'dist/index.js': 'export const a = 1\n',
  'dist/index.d.ts': 'export declare const a: 1\n',
  'dist/adapter.js': 'export const b = 2\n',
  'dist/adapter.d.ts': 'export declare const b: 2\n',
}

const RIGHT = {
  '.': { types: './dist/index.d.ts', default: './dist/index.js' },
  './adapter': { types: './dist/adapter.d.ts', default: './dist/adapter.js' },
  './package.json': './package.json',
}

describe('publintProblems and attwProblems', () => {
  it('pass an ESM-only package with types first in each entry', async () => {
    const right = tarball('right', { ...DIST, 'package.json': manifest(RIGHT) })
    expect(await publintProblems(right)).toEqual([])
    expect(await attwProblems(right)).toEqual([])
  })

  it('fail on an entry whose types come after default (publint) and resolve to no .d.ts (attw)', async () => {
    const exports = { ...RIGHT, './adapter': { default: './dist/adapter.js', types: './dist/adapter.d.ts' } }
    const { 'dist/adapter.d.ts': _types, ...untyped } = DIST
    const wrong = tarball('types-last', { ...untyped, 'package.json': manifest(exports) })
    expect(await publintProblems(wrong)).toEqual([
      'publint: pkg.exports["./adapter"].types should be the first in the object as conditions are ' +
        'order-sensitive so it can be resolved by TypeScript.',
      'publint: pkg.exports["./adapter"].default should be the last in the object so it doesn\'t take ' +
        'precedence over the keys following it.',
      'publint: pkg.exports["./adapter"].types is ./dist/adapter.d.ts but the file does not exist.',
    ])
    const untypedLine = (resolution: string) =>
      `attw: Could not find types at './adapter' (${resolution}): Import resolved to JavaScript files, but no ` +
      'type declarations were found. https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/' +
      'docs/problems/UntypedResolution.md'
    expect(await attwProblems(wrong)).toEqual([untypedLine('node16-esm'), untypedLine('bundler')])
  })

  it('fail on an export that points to a file not packed', async () => {
    const { 'dist/index.js': _index, ...rest } = DIST
    const missing = tarball('missing', { ...rest, 'package.json': manifest(RIGHT) })
    expect(await publintProblems(missing)).toEqual([
      'publint: pkg.exports["."].default is ./dist/index.js but the file does not exist.',
    ])
  })

  it('fail on a package whose entries have no types at all (attw)', async () => {
    const exports = { '.': './dist/index.js', './package.json': './package.json' }
    const untyped = tarball('untyped', { 'dist/index.js': 'export {}\n', 'package.json': manifest(exports) })
    expect(await attwProblems(untyped)).toEqual([
      'attw: the package has no types (package.json names no .d.ts)',
    ])
  })
})

describe('the esm-only profile on the core', () => {
  let core = ''
  beforeAll(async () => {
    core = (await packPackage(join(root, 'packages/core'), join(scratch, 'core'))).filename
  }, 60_000)

  it('leaves out what only CommonJS resolution reports, and nothing else', async () => {
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(core))))
    if (!analysis.types) throw new Error('attw found no types in the core')
    const kinds = new Set(
      analysis.problems.map((problem) => ('resolutionKind' in problem ? problem.resolutionKind : '')),
    )
    // The full analysis does find problems, all of them under node10 or node16 from CommonJS.
    expect(analysis.problems.length).toBeGreaterThan(0)
    expect([...kinds].sort()).toEqual(['node10', 'node16-cjs'])
    expect(await attwProblems(core)).toEqual([])
    expect(await publintProblems(core)).toEqual([])
  })
})
