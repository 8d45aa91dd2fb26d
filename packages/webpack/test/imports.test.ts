import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * webpack, webpack-dev-server, @rspack/dev-server and Express are optional peers: a project of
 * either world installs only its own. So the adapter imports none of them, not even their types
 * (a type import in the emitted .d.ts would break a user's type check without them): it reads the
 * dev server through the structural `DevServerLike`.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
/** An import or re-export statement (at a line's start, so an example in a message is not one), or `import('…')`. */
const STATEMENT =
  /^(?:import|export)\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+)(?:\s*,\s*\{[^}]*\})?\s+from\s+'([^']+)'|\bimport\(\s*'([^']+)'/gm

function specifiers(dir: string, extension: string): { file: string; specifier: string }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(extension))
    .flatMap((name) =>
      [...readFileSync(join(dir, name), 'utf8').matchAll(STATEMENT)].map((match) => ({
        file: name,
        specifier: (match[1] ?? match[2]) as string,
      })),
    )
}

const allowed = (specifier: string) =>
  specifier.startsWith('node:') ||
  specifier.startsWith('.') ||
  specifier === '@cors-dev-proxy/core' ||
  specifier === '@cors-dev-proxy/core/adapter'

describe('the webpack adapter imports', () => {
  it('only node:, its own files and the core, in its sources', () => {
    const found = specifiers(SRC, '.ts')
    expect(found.length).toBeGreaterThan(5)
    expect(found.filter(({ specifier }) => !allowed(specifier))).toEqual([])
  })

  it('declares no dev server, bundler or Express as a required peer or dependency', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>
      peerDependencies?: Record<string, string>
      peerDependenciesMeta?: Record<string, { optional?: boolean }>
    }
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@cors-dev-proxy/core'])
    const required = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    )
    expect(required).toEqual([])
  })
})
