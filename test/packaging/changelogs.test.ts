import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { changelogProblems, packageChangelogProblems } from '../../scripts/release/changelogs.mjs'

// The release check's changelog rule (scripts/release/changelogs.mjs): a CHANGELOG.md per package,
// titled with its name, its newest entry the version in package.json.

const manifest = { name: '@cors-dev-proxy/vite', version: '0.1.1' }
const scratch = mkdtempSync(join(tmpdir(), 'cdp-changelogs-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('changelogProblems', () => {
  it('passes a changelog as changeset version writes it', () => {
    const text =
      '# @cors-dev-proxy/vite\n\n## 0.1.1\n\n### Patch Changes\n\n- A fix.\n\n## 0.1.0\n\nFirst release.\n'
    expect(changelogProblems(text, manifest)).toEqual([])
  })

  it('fails when the newest entry is not the package version (a version changed by hand)', () => {
    const text = '# @cors-dev-proxy/vite\n\n## 0.1.0\n\nFirst release.\n'
    expect(changelogProblems(text, manifest)).toEqual([
      "CHANGELOG.md's newest entry is '## 0.1.0', not '## 0.1.1' (package.json's version): bump versions " +
        'with `pnpm version-packages`, which writes both',
    ])
  })

  it('fails on another package title and on no entry at all', () => {
    expect(changelogProblems('# @cors-dev-proxy/core\n', manifest)).toEqual([
      "CHANGELOG.md starts with '# @cors-dev-proxy/core', not '# @cors-dev-proxy/vite'",
      "CHANGELOG.md's newest entry is 'none', not '## 0.1.1' (package.json's version): bump versions with " +
        '`pnpm version-packages`, which writes both',
    ])
  })

  it('fails when there is no changelog', () => {
    expect(changelogProblems(undefined, manifest)).toEqual([
      'has no CHANGELOG.md: `pnpm version-packages` writes one from the changesets',
    ])
    expect(packageChangelogProblems(scratch, manifest)).toHaveLength(1)
  })

  it('reads CHANGELOG.md from the package folder', () => {
    writeFileSync(join(scratch, 'CHANGELOG.md'), '# @cors-dev-proxy/vite\n\n## 0.1.1\n\nA fix.\n')
    expect(packageChangelogProblems(scratch, manifest)).toEqual([])
  })
})
