import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPackages } from '../../scripts/pack-local.mjs'
import { NODE24_BINARY } from '../../scripts/prepare-test-tools.mjs'
import {
  commonJsSample,
  prepareRequireProject,
  probeRequire,
  REQUIRED_EXPORTS,
  requireProblems,
  uncoveredPackages,
} from '../../scripts/release/require-check.mjs'
import { type Requirement, skipUnmet } from '../support/requirement.js'

// require() of every package from a CommonJS script, as a webpack.config.js loads the adapter
// (scripts/release/require-check.mjs, a step of `pnpm release:check`): the tarballs installed in a
// CommonJS project without their peers, then the webpack README's config and each entry required,
// on this Node (the repository's 20.19+) and on Node 24. Then the same probe on a module with
// top-level await, which require() cannot load, and on a missing export, to show it fails.

const root = fileURLToPath(new URL('../../', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'cdp-require-'))
const project = join(scratch, 'project')
let tarballs: Record<string, string> = {}
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

beforeAll(async () => {
  tarballs = await packPackages(root, join(scratch, 'tarballs'))
  await prepareRequireProject(project, tarballs)
  // Two modules of our own beside the installed packages, for the failing cases.
  const plant = (name: string, source: string) => {
    mkdirSync(join(project, 'node_modules', name), { recursive: true })
    writeFileSync(
      join(project, 'node_modules', name, 'package.json'),
      JSON.stringify({ name, type: 'module' }),
    )
    writeFileSync(join(project, 'node_modules', name, 'index.js'), source)
  }
  plant('awaits-at-top', 'await Promise.resolve()\nexport const ready = () => true\n')
  plant('no-plugin', 'export const somethingElse = () => true\n')
}, 180_000)

const node24: Requirement = existsSync(NODE24_BINARY)
  ? { ok: true }
  : { ok: false, reason: `Node 24 is not at ${NODE24_BINARY} (pnpm test:tools installs it)` }

describe('require() of the installed packages from CommonJS', () => {
  it('covers every published package', () => {
    // pack.test.ts checks that these are the nine packages of the repository.
    expect(Object.keys(tarballs)).toHaveLength(9)
    expect(uncoveredPackages(Object.keys(tarballs), REQUIRED_EXPORTS)).toEqual([])
    // A package added without its entry in REQUIRED_EXPORTS is named.
    expect(uncoveredPackages([...Object.keys(tarballs), '@cors-dev-proxy/added'], REQUIRED_EXPORTS)).toEqual([
      '@cors-dev-proxy/added',
    ])
  })

  it("runs the webpack README's CommonJS config as written", () => {
    const sample = commonJsSample(readFileSync(join(root, 'packages/webpack/README.md'), 'utf8'))
    expect(sample).toContain("require('@cors-dev-proxy/webpack')")
    expect(readFileSync(join(project, 'webpack.config.js'), 'utf8')).toBe(sample)
  })

  it(`loads every entry on this Node (${process.version})`, async () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true)
    expect(await probeRequire(project, process.execPath)).toEqual([])
  }, 60_000)

  it('fails on a module with top-level await and on a missing export', async () => {
    const expected = { 'awaits-at-top': { ready: 'function' }, 'no-plugin': { corsDevProxy: 'function' } }
    const problems = await probeRequire(project, process.execPath, expected)
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(`^Node ${process.version}: require\\('awaits-at-top'\\) threw ERR_REQUIRE_ASYNC_MODULE: `),
      ),
      `Node ${process.version}: require('no-plugin').corsDevProxy is missing, not a function`,
    ])
  }, 60_000)
})

const skip24 = skipUnmet('require() on Node 24', node24)
describe.skipIf(skip24)('require() on Node 24', () => {
  it('loads every entry', async () => {
    expect(await probeRequire(project, NODE24_BINARY)).toEqual([])
  }, 60_000)
})

describe('requireProblems', () => {
  it('compares one level into an exported object', () => {
    const report = { './webpack.config.js': { exports: { devServer: { setupMiddlewares: 'undefined' } } } }
    const expected = { './webpack.config.js': { devServer: { setupMiddlewares: 'function' } } }
    expect(requireProblems(report, expected)).toEqual([
      "require('./webpack.config.js').devServer.setupMiddlewares is undefined, not a function",
    ])
    expect(requireProblems({}, expected)).toEqual(["require('./webpack.config.js') was not probed"])
  })
})
