import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/** The checker's libraries: loaded only when a route sets `openapi` (lazy-load.test.ts runs it). */
const CHECKER_LIBRARIES = /^(ajv|ajv-formats|@apidevtools\/swagger-parser)(\/|$)/

/** Every source file, `/`-separated paths from `src`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return name.endsWith('.ts') ? [relative(src, full).split('\\').join('/')] : []
  })
}

/** The imports of a text that load a module when the file loads: static, not `import type`. */
function loadingImports(text: string): string[] {
  const imports = text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\s+from\s+)?'([^']+)'/gm)
  return [...imports].map((match) => match[1] as string)
}

/** Where each file loads a checker library statically, or dynamically outside contract/. */
function eagerCheckerLoads(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) => {
    const text = read(file)
    const eager = loadingImports(text).filter((spec) => CHECKER_LIBRARIES.test(spec))
    const dynamic = [...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)]
      .map((match) => match[1] as string)
      .filter((spec) => CHECKER_LIBRARIES.test(spec) && !file.startsWith('contract/'))
    return [...eager, ...dynamic].map((spec) => `${file} loads ${spec}`)
  })
}

describe('the checker’s libraries', () => {
  it('are loaded by dynamic import() from contract/ only', () => {
    const files = sourceFiles(src)
    expect(files).toContain('contract/schema-compiler.ts')
    expect(eagerCheckerLoads(files, (file) => readFileSync(join(src, file), 'utf8'))).toEqual([])
  })

  it('the check itself sees a static import, and a dynamic one outside contract/', () => {
    const texts: Record<string, string> = {
      'proxy/a.ts': "import Ajv from 'ajv'\nimport type { ErrorObject } from 'ajv'",
      'inspector/b.ts': "const m = await import('@apidevtools/swagger-parser')",
      'contract/c.ts': "import type { ErrorObject } from 'ajv'\nconst m = await import('ajv-formats')",
      'contract/d.ts': "export { default } from 'ajv/dist/2020.js'",
    }
    expect(eagerCheckerLoads(Object.keys(texts), (file) => texts[file] as string)).toEqual([
      'proxy/a.ts loads ajv',
      'inspector/b.ts loads @apidevtools/swagger-parser',
      'contract/d.ts loads ajv/dist/2020.js',
    ])
  })
})
