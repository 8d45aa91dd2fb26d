import { describe, expect, it } from 'vitest'
import { PUBLISH_DRY_RUN, publishDryRunProblems } from '../../scripts/release/publish-dry-run.mjs'

// How the release check reads `pnpm -r publish --dry-run` (scripts/release/publish-dry-run.mjs).
// `pnpm release:check` runs it for real; here its output, as pnpm 10 and npm 11 print it, is
// altered in each way that must fail.

/** One package's part of the output, trimmed of its file list. */
function published(name: string, access = 'public'): string {
  return [
    'npm warn using --force Recommended protections disabled.',
    'npm notice',
    `npm notice 📦  ${name}@0.1.0`,
    'npm notice Tarball Contents',
    'npm notice 1.1kB LICENSE',
    'npm notice 2.6kB README.md',
    'npm notice 1.1kB package.json',
    'npm notice Tarball Details',
    `npm notice name: ${name}`,
    'npm notice version: 0.1.0',
    'npm notice',
    'npm warn publish This command requires you to be logged in to https://registry.npmjs.org/ (dry-run)',
    `npm notice Publishing to https://registry.npmjs.org/ with tag latest and ${access} access (dry-run)`,
    `+ ${name}@0.1.0`,
  ].join('\n')
}

const packages = [
  { name: '@cors-dev-proxy/core', version: '0.1.0' },
  { name: '@cors-dev-proxy/vite', version: '0.1.0' },
]
const HEADER =
  '.                                        |  WARN  using --force I sure hope you know what you are doing'

describe('publishDryRunProblems', () => {
  it('passes when every package went out with public access', () => {
    const output = [HEADER, published('@cors-dev-proxy/core'), published('@cors-dev-proxy/vite')].join('\n')
    expect(publishDryRunProblems(output, packages)).toEqual([])
  })

  it('fails on a package the dry run skipped', () => {
    const output = [HEADER, published('@cors-dev-proxy/core')].join('\n')
    expect(publishDryRunProblems(output, packages)).toEqual([
      '@cors-dev-proxy/vite@0.1.0 was not published by the dry run',
    ])
  })

  it("fails on a scoped package left to npm's default access, and says how to fix it", () => {
    const output = [
      HEADER,
      published('@cors-dev-proxy/core'),
      published('@cors-dev-proxy/vite', 'default'),
    ].join('\n')
    expect(publishDryRunProblems(output, packages)).toEqual([
      '@cors-dev-proxy/vite would not be published public (npm notice Publishing to https://registry.npmjs.org/ ' +
        'with tag latest and default access (dry-run)): add "publishConfig": { "access": "public" } to its package.json',
    ])
  })

  it('fails when npm corrected package.json, or on an error', () => {
    const corrected = 'npm warn publish npm auto-corrected some errors in your package.json when publishing.'
    const error = 'npm error code E403'
    const output = [
      published('@cors-dev-proxy/core'),
      corrected,
      published('@cors-dev-proxy/vite'),
      error,
    ].join('\n')
    expect(publishDryRunProblems(output, packages)).toEqual([corrected, error])
  })

  it('never publishes for real', () => {
    expect(PUBLISH_DRY_RUN).toContain('--dry-run')
  })
})
