import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The CLI is built on the core's public API and its adapter subpath, nothing else of the core,
 * and on the few libraries it declares: a deep import into the core would break on any release.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  )
}

const imports = sources(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => ({
    file: file.slice(SRC.length),
    specifier: match[1] as string,
  })),
)

describe('the CLI imports', () => {
  it('reach the core through its two public entries only', () => {
    const core = imports.filter(({ specifier }) => specifier.startsWith('@cors-dev-proxy/'))
    expect(core.length).toBeGreaterThan(5)
    expect(
      core.filter(
        ({ specifier }) => !['@cors-dev-proxy/core', '@cors-dev-proxy/core/adapter'].includes(specifier),
      ),
    ).toEqual([])
  })

  it('use only node:, relative files and declared dependencies', () => {
    const packages = imports
      .map(({ specifier }) => specifier)
      .filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('.'))
      .map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      )
    expect([...new Set(packages)].filter((name) => !(name in manifest.dependencies))).toEqual([])
  })
})
