// Every published package keeps a CHANGELOG.md beside its package.json, written by
// `changeset version` (the newest version on top). It stays out of the tarball, as npm and pnpm
// leave it out unless `files` names it; its place is the repository.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What is wrong with a package's changelog: missing, not titled with the package's name as
 * changesets writes it, or its newest entry not the version in package.json (a version changed
 * by hand, without `pnpm version-packages`).
 * @param {string | undefined} text the changelog, or undefined when there is none
 * @param {{ name: string, version: string }} manifest
 * @returns {string[]} one sentence per problem
 * @example
 * changelogProblems('# @cors-dev-proxy/vite\n\n## 0.1.0\n\nFirst release.\n', { name: '@cors-dev-proxy/vite', version: '0.1.0' })
 * // → []
 */
export function changelogProblems(text, { name, version }) {
  if (text === undefined)
    return ['has no CHANGELOG.md: `pnpm version-packages` writes one from the changesets']
  const lines = text.split('\n')
  const problems = []
  if (lines[0] !== `# ${name}`) problems.push(`CHANGELOG.md starts with '${lines[0]}', not '# ${name}'`)
  const newest = lines.find((line) => line.startsWith('## '))
  if (newest !== `## ${version}`) {
    problems.push(
      `CHANGELOG.md's newest entry is '${newest ?? 'none'}', not '## ${version}' (package.json's ` +
        'version): bump versions with `pnpm version-packages`, which writes both',
    )
  }
  return problems
}

/**
 * Reads the changelog of the package in `dir` and returns its problems.
 * @param {string} dir the package's folder
 * @param {{ name: string, version: string }} manifest
 * @returns {string[]}
 */
export function packageChangelogProblems(dir, manifest) {
  const path = join(dir, 'CHANGELOG.md')
  return changelogProblems(existsSync(path) ? readFileSync(path, 'utf8') : undefined, manifest)
}
