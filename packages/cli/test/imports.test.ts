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
  [...readFileSync(file, 'utf8').matchAll(/(from|import\()\s*'([^']+)'/g)].map((match) => ({
    file: file.slice(SRC.length),
    specifier: match[2] as string,
    lazy: match[1] === 'import(',
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

  it('load the MCP SDK only in mcp/, which the mcp command alone imports, when it runs', () => {
    const sdk = imports.filter(
      ({ specifier }) => specifier.startsWith('@modelcontextprotocol/') || specifier === 'zod',
    )
    expect(sdk.length).toBeGreaterThan(3)
    expect(sdk.filter(({ file }) => !file.startsWith('mcp/'))).toEqual([])
    const intoMcp = imports.filter(
      ({ file, specifier }) => !file.startsWith('mcp/') && /(^|\/)mcp\//.test(specifier),
    )
    expect(intoMcp).toEqual([{ file: 'commands/mcp.ts', specifier: '../mcp/mcp-server.js', lazy: true }])
  })
})
