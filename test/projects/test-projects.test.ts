import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import config, { sourceAliases } from '../../vitest.config.js'
import { findTestFiles, OUTSIDE_PROJECTS, runtimeImports, splitTestFiles } from './test-projects.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A glob of `*` (within a folder) and `**` (any folders) as a RegExp over `/`-separated paths. */
function globPattern(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\/|\/\*\*$|\*/g, (token) =>
      token === '**/' ? '(?:.*/)?' : token === '/**' ? '/.*' : '[^/]*',
    )
  return new RegExp(`^${source}$`)
}

interface ProjectConfig {
  test: { name: string; include: string[]; exclude?: string[] }
}

const projects = (config.test?.projects ?? []) as unknown as ProjectConfig[]

/** Whether a project's include and exclude globs (the root's excludes merged in) take a file. */
function takes(project: ProjectConfig, file: string): boolean {
  const excludes = [...(config.test?.exclude ?? []), ...(project.test.exclude ?? [])]
  return (
    project.test.include.some((glob) => globPattern(glob).test(file)) &&
    !excludes.some((glob) => globPattern(glob).test(file))
  )
}

/** Every `*.test.ts` of the repository outside node_modules, dist and dot-folders, wherever it is. */
function everyTestFile(dir = ROOT): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist'].includes(entry.name) || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...everyTestFile(path))
    else if (entry.name.endsWith('.test.ts')) found.push(path.slice(ROOT.length).split('\\').join('/'))
  }
  return found
}

describe('the unit and integration projects of vitest.config.ts', () => {
  const split = splitTestFiles(ROOT, sourceAliases)

  it('are the four projects, unit first, network and stress last', () => {
    expect(projects.map((project) => project.test.name)).toEqual(['unit', 'integration', 'network', 'stress'])
  })

  it('run the stress files beside network, after the others', () => {
    const stress = projects[3] as ProjectConfig & { test: { sequence?: { groupOrder?: number } } }
    expect(stress.test.sequence?.groupOrder).toBe(1)
    expect(findTestFiles(ROOT).filter((file) => takes(stress, file))).toEqual(split.stress)
    for (const file of [
      'test/reliability/load.test.ts',
      'packages/core/test/forward/forward-request-large.test.ts',
    ])
      expect(split.stress, file).toContain(file)
    // None of them opens a browser, which the network project's namespaces would disturb.
    for (const file of split.stress) expect(split.reasons.get(file), file).not.toMatch(/playwright/)
  })

  it('run the files that change the network after the others, one at a time', () => {
    const network = projects[2] as ProjectConfig & {
      test: { fileParallelism?: boolean; sequence?: { groupOrder?: number } }
    }
    expect(network.test.fileParallelism).toBe(false)
    expect(network.test.sequence?.groupOrder).toBe(1)
    const others = findTestFiles(ROOT).filter((file) => takes(network, file))
    expect(others).toEqual(split.network)
    // The lab's network tests and the HTTP/3 fallback test create namespaces through the lab.
    for (const file of ['test/playground/lab-network.test.ts', 'test/http3/udp-blocked-fallback.test.ts'])
      expect(split.network, file).toContain(file)
    expect(split.integration).not.toContain('test/playground/lab-network.test.ts')
  })

  it('take every test file of the repository in exactly one of them, but the matrix suites', () => {
    const misplaced = everyTestFile()
      .filter((file) => !OUTSIDE_PROJECTS.some((folder) => file.startsWith(`${folder}/`)))
      .map((file) => ({ file, in: projects.filter((p) => takes(p, file)).map((p) => p.test.name) }))
      .filter((entry) => entry.in.length !== 1)
    expect(misplaced).toEqual([])
  })

  it('run no matrix suite', () => {
    const adapters = everyTestFile().filter((file) => file.startsWith('test/adapters/'))
    expect(adapters.length).toBeGreaterThan(3)
    expect(adapters.filter((file) => projects.some((p) => takes(p, file)))).toEqual([])
  })

  it('put in unit only files that start no child process, browser or dev server and need no build', () => {
    const unit = findTestFiles(ROOT).filter((file) => takes(projects[0] as ProjectConfig, file))
    expect(unit).toEqual(split.unit)
    expect(unit.length).toBeGreaterThan(100)
  })

  it('put in integration every file that imports a support module starting one, directly or not', () => {
    const integration = findTestFiles(ROOT).filter((file) => takes(projects[1] as ProjectConfig, file))
    expect(integration).toEqual(split.integration)
    // The CLI suites spawn dist/bin.js, the browser suites launch Chromium, the docs read the built site.
    for (const file of [
      'packages/cli/test/commands/serve.test.ts',
      'test/browser/browser-sequences.test.ts',
      'test/docs/check-rendering.test.ts',
      'test/reliability/hostile-fuzz.test.ts',
    ]) {
      expect(split.reasons.get(file), file).toBeDefined()
    }
  })
})

describe('the rule, on files written for it', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-projects-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), text)
  }
  mkdirSync(join(root, 'packages'))
  write('test/support/spawner.ts', "import { spawn } from 'node:child_process'\nexport const run = spawn\n")
  write('test/support/middle.ts', "export { run } from './spawner.js'\n")
  write(
    'test/support/types-only.ts',
    "import type { ViteDevServer } from 'vite'\nexport type S = ViteDevServer\n",
  )
  write('test/docs/built-docs.ts', 'export const DIST = 1\n')
  write('lib/src/index.ts', "import { chromium } from 'playwright-core'\nexport const b = chromium\n")
  const aliases = [{ find: /^@lib$/, replacement: join(root, 'lib/src/index.ts') }]
  // The calls below are cut in two so that this file's own text does not read as loading them.
  const cases: ReadonlyArray<readonly [file: string, text: string, reason: string | undefined]> = [
    ['test/a/plain.test.ts', "import { createServer } from 'node:http'\nimport 'vitest'\n", undefined],
    ['test/a/through.test.ts', "import { run } from '../support/middle.js'\n", 'test/support/spawner.ts'],
    ['test/a/typed.test.ts', "import type { S } from '../support/types-only.js'\n", undefined],
    [
      'test/a/comment.test.ts',
      "/**\n * import { defineConfig } from 'vite'\n */\n// import 'webpack'\n",
      undefined,
    ],
    ['test/a/dynamic.test.ts', 'const vite = await import' + "('vite8')\n", 'imports vite8'],
    [
      'test/a/required.test.ts',
      'createRequire(import.meta.url)' + "('child_process')\n",
      'imports child_process',
    ],
    ['test/a/alias.test.ts', "import { b } from '@lib'\n", 'imports playwright-core'],
    ['test/a/rsbuild.test.ts', "import { createRsbuild } from '@rsbuild/core'\n", 'imports @rsbuild/core'],
    ['test/a/built.test.ts', "import { DIST } from '../docs/built-docs.js'\n", 'needs a build'],
    ['test/a/marked.test.ts', '// Test project: integration (1 GiB each way)\n', '1 GiB each way'],
    ['test/a/stressed.test.ts', '// Test project: stress (8,000 requests)\n', '8,000 requests'],
    ['test/a/vitest.test.ts', "import { it } from 'vitest'\nimport { x } from 'vitest/config'\n", undefined],
  ]
  for (const [file, text] of cases) write(file, text)
  write('test/adapters/vite.test.ts', "import 'vite'\n")

  it.each(cases)('%s', (file, _text, reason) => {
    const split = splitTestFiles(root, aliases)
    if (reason === undefined) expect(split.unit).toContain(file)
    else expect(split.reasons.get(file)).toContain(reason)
    expect(split.stress.includes(file), 'in stress').toBe(file.includes('stressed'))
  })

  it('puts a file that imports the lab network module itself in network, and one that reaches it through a support module in integration', () => {
    write(
      'playground/lab/lab-network.mjs',
      "import { execFile } from 'node:child_process'\nexport const x = execFile\n",
    )
    write('test/support/lab-user.ts', "export { x } from '../../playground/lab/lab-network.mjs'\n")
    write('test/b/lab.test.ts', "import { x } from '../../playground/lab/lab-network.mjs'\n")
    write('test/b/page.test.ts', "import { x } from '../support/lab-user.js'\n")
    const split = splitTestFiles(root, aliases)
    rmSync(join(root, 'test/b'), { recursive: true })
    expect(split.network).toEqual(['test/b/lab.test.ts'])
    expect(split.integration).toContain('test/b/page.test.ts')
  })

  it('leaves the matrix suites out of both', () => {
    const split = splitTestFiles(root, aliases)
    expect([...split.unit, ...split.integration, ...split.stress]).toHaveLength(cases.length)
  })

  it('reads imports, re-exports, dynamic imports and requires, without type-only imports or comments', () => {
    const text = [
      "import a from 'a'",
      "const globs = ['dist/**'] // a string, not the start of a comment",
      "import { type B, c } from 'c'",
      "const more = ['**/x']",
      "import type { D } from 'd'",
      "export { e } from 'e'",
      "export type { F } from 'f'",
      "import 'g'",
      "await import('h')",
      "require('i')",
      "// import 'j'",
      '/**',
      " * import('k')",
      ' */',
    ].join('\n')
    expect(runtimeImports(text).sort()).toEqual(['a', 'c', 'e', 'g', 'h', 'i'])
  })
})
