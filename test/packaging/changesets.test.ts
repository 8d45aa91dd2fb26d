import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { publishedPackageDirs } from '../../scripts/pack-local.mjs'
import { changelogProblems } from '../../scripts/release/changelogs.mjs'

// The release flow's first half, `pnpm version-packages` (changeset version), on a copy of the
// repository's manifests, changelogs and .changeset/config.json: one changeset for one adapter
// moves all nine packages to the next version together (they are one fixed group), writes the
// entry at the top of each changelog, leaves the private playground alone, and leaves changelogs
// that `pnpm release:check` accepts.

const exec = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))
const changeset = join(root, 'node_modules/@changesets/cli/bin.js')
const copy = mkdtempSync(join(tmpdir(), 'cdp-changesets-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

/** The package.json (and CHANGELOG.md) of every workspace package, and the workspace's own files. */
function copyManifests(): void {
  // The config without the changesets waiting in the repository, so that the bump is this test's.
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    cpSync(join(root, file), join(copy, file))
  }
  const dirs = [
    ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    join(root, 'playground'),
  ]
  for (const dir of dirs) {
    for (const file of ['package.json', 'CHANGELOG.md']) {
      if (existsSync(join(dir, file))) cpSync(join(dir, file), join(copy, relative(root, dir), file))
    }
  }
}

const read = (path: string) => readFileSync(join(copy, path), 'utf8')
const manifest = (dir: string) =>
  JSON.parse(read(`${dir}/package.json`)) as { name: string; version?: string }

describe('changeset version with the repository config', () => {
  const published = publishedPackageDirs(root).map((dir) => relative(root, dir))

  it('has the published packages, and only those, in its one fixed group', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as {
      fixed: string[][]
    }
    const names = published.map(
      (dir) => (JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string }).name,
    )
    expect(config.fixed.map((group) => [...group].sort())).toEqual([names.sort()])
  })

  it('bumps the nine packages together and writes each changelog', async () => {
    copyManifests()
    const before = Object.fromEntries(published.map((dir) => [dir, manifest(dir).version]))
    const playground = read('playground/package.json')
    writeFileSync(
      join(copy, '.changeset/tidy-owls-sing.md'),
      "---\n'@cors-dev-proxy/vite': patch\n---\n\nThe start-up line names the Vite version.\n",
    )

    await exec(process.execPath, [changeset, 'version'], { cwd: copy })

    for (const dir of published) {
      const { name, version } = manifest(dir)
      const [major, minor, patch] = (before[dir] ?? '').split('.').map(Number)
      expect(version).toBe(`${major}.${minor}.${(patch ?? 0) + 1}`)
      expect(changelogProblems(read(`${dir}/CHANGELOG.md`), { name, version: version ?? '' })).toEqual([])
    }
    expect(read('packages/vite/CHANGELOG.md')).toContain(
      '### Patch Changes\n\n- The start-up line names the Vite version.\n',
    )
    // The old entry stays below the new one.
    expect(read('packages/vite/CHANGELOG.md')).toMatch(
      new RegExp(`## ${manifest('packages/vite').version}[\\s\\S]*## ${before['packages/vite']}`),
    )
    expect(read('playground/package.json')).toBe(playground)
    expect(existsSync(join(copy, '.changeset/tidy-owls-sing.md'))).toBe(false)
  }, 60_000)
})
