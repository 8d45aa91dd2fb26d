import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/*
 * Which Vitest project a test file belongs to, decided from its imports so that nobody keeps a list:
 * `unit` holds the files that start no child process, browser or dev server and need nothing built,
 * `network` the files that change the machine's network (a namespace and the veth pair to it, see
 * NETWORK_MODULES), `stress` the files that carry the stress mark (volume: a gibibyte streamed,
 * thousands of requests), `integration` the rest. vitest.config.ts builds the projects from
 * `splitTestFiles`, and test/projects/test-projects.test.ts checks the result.
 */

/** The globs of every test file, relative to the repository's root. */
export const TEST_FILE_GLOBS: readonly string[] = ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts']

/**
 * Folders no project runs: the adapter suites run once per dev-server version from
 * test/matrix/run-matrix.mjs, and the matrix's own config lives in test/matrix.
 */
export const OUTSIDE_PROJECTS: readonly string[] = ['test/adapters', 'test/matrix']

/**
 * Packages whose import makes a test an integration test: each starts, or exists to start, a child
 * process, a browser or a dev server (`vite6`…`vite8` and `wds5`/`wds6` are the root's npm aliases;
 * `vitepress` is Vite underneath). `vitest` itself is not one of them.
 */
const STARTS_SOMETHING: readonly RegExp[] = [
  /^(node:)?child_process$/,
  /^playwright-core($|\/)/,
  /^vite(?!st)/,
  /^webpack/,
  /^wds\d/,
  /^@rspack\//,
  /^@rsbuild\//,
]

/**
 * Modules that change the machine's network: the lab's namespace adds a veth pair and an address
 * in the root namespace, which every Chromium outside it takes as a network change and aborts its
 * requests in flight (`ERR_NETWORK_CHANGED`). A test file that imports one itself (not through the
 * playground's server, which only reaches it when a page asks for the lab) must not run beside a
 * browser test, nor beside another of its kind.
 */
const NETWORK_MODULES: readonly string[] = ['playground/lab/lab-network.mjs']

/** Support modules that read what a build writes, so a test importing one cannot run before `pnpm build`/`pnpm docs:build`. */
const NEEDS_A_BUILD: readonly string[] = ['test/docs/built-docs.ts']

/**
 * A file that starts none of the above but is too slow for the fast loop carries this line, with the
 * reason, e.g. `// Test project: integration (1 GiB each way through the proxy, about 30 s)`.
 */
const INTEGRATION_MARK = /^\/\/ Test project: integration \((.+)\)$/m

/**
 * A file whose point is volume (a gibibyte streamed, thousands of requests, the same race run
 * hundreds of times) carries this line instead, e.g. `// Test project: stress (1 GiB each way)`.
 * It starts no browser, so it runs beside the `network` project, whose files mostly wait on lost
 * packets, instead of taking turns with the integration files.
 */
const STRESS_MARK = /^\/\/ Test project: stress \((.+)\)$/m

/** An alias as Vitest's `resolve.alias` takes it: a bare specifier and the absolute file it stands for. */
export interface SourceAlias {
  find: RegExp
  replacement: string
}

/** The test files of each project, `/`-separated paths relative to the root, sorted. */
export interface TestProjectFiles {
  unit: string[]
  integration: string[]
  /** Integration files that change the machine's network (see NETWORK_MODULES): run alone, after the others. */
  network: string[]
  /** Files with the stress mark: run after the integration files, beside `network`. */
  stress: string[]
  /** For each integration file, why it is one: `<file>: imports <module>`, `<file>: needs a build` or its mark. */
  reasons: ReadonlyMap<string, string>
}

// Static imports and re-exports (`import type` and `export type` are erased, so they do not count),
// dynamic `import('…')`, `require('…')` and `createRequire(…)('…')`.
const IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm
const CALL = /(?:\bimport|\brequire|\bcreateRequire\([^)]*\))\(\s*['"]([^'"]+)['"]\s*\)/g
// Comments that start a line: a `/*` inside a string ('**/*.ts') is not one.
const COMMENT = /^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm

/** Every module specifier a source file loads at run time, comments left out. */
export function runtimeImports(text: string): string[] {
  const code = text.replace(COMMENT, '')
  return [...code.matchAll(IMPORT), ...code.matchAll(CALL)].map((match) => match[1] as string)
}

/** The repository file a specifier names, if it is one (relative, or one of the aliases). */
function resolveLocal(from: string, specifier: string, aliases: readonly SourceAlias[]): string | undefined {
  const alias = aliases.find((entry) => entry.find.test(specifier))
  let path: string
  if (alias) path = alias.replacement
  else if (specifier.startsWith('.')) path = resolve(dirname(from), specifier)
  else return undefined
  const candidates = [path, path.replace(/\.(m?)js$/, '.$1ts'), `${path}.ts`, join(path, 'index.ts')]
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

/** What a file says about its project: its integration mark, and the modules it loads. */
interface FileFacts {
  mark: string | undefined
  imports: string[]
  /** The repository file each import names, found on first use (`null`: a package). */
  resolved: Map<string, string | null>
}

/** Why a file, with what it imports transitively within the repository, is an integration test; undefined if it is not. */
function integrationReason(
  root: string,
  file: string,
  aliases: readonly SourceAlias[],
  seen: Set<string>,
  facts: Map<string, FileFacts>,
): string | undefined {
  if (seen.has(file)) return undefined
  seen.add(file)
  const name = relative(root, file).split('\\').join('/')
  if (NEEDS_A_BUILD.includes(name)) return `${name}: needs a build`
  let known = facts.get(file)
  if (known === undefined) {
    const text = readFileSync(file, 'utf8')
    known = { mark: INTEGRATION_MARK.exec(text)?.[1], imports: runtimeImports(text), resolved: new Map() }
    facts.set(file, known)
  }
  if (known.mark !== undefined) return `${name}: ${known.mark}`
  for (const specifier of known.imports) {
    if (STARTS_SOMETHING.some((pattern) => pattern.test(specifier))) return `${name}: imports ${specifier}`
    let local = known.resolved.get(specifier)
    if (local === undefined) {
      local = resolveLocal(file, specifier, aliases) ?? null
      known.resolved.set(specifier, local)
    }
    const reason = local === null ? undefined : integrationReason(root, local, aliases, seen, facts)
    if (reason) return reason
  }
  return undefined
}

/** Whether a test file itself imports one of `targets` (root-relative names). */
function importsDirectly(
  root: string,
  file: string,
  targets: readonly string[],
  aliases: readonly SourceAlias[],
): boolean {
  return runtimeImports(readFileSync(file, 'utf8')).some((specifier) => {
    const local = resolveLocal(file, specifier, aliases)
    return local !== undefined && targets.includes(relative(root, local).split('\\').join('/'))
  })
}

/** Every test file under the globs of {@link TEST_FILE_GLOBS} but outside {@link OUTSIDE_PROJECTS}. */
export function findTestFiles(root: string): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      const name = relative(root, path).split('\\').join('/')
      if (OUTSIDE_PROJECTS.includes(name)) continue
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.test.ts')) found.push(name)
    }
  }
  walk(join(root, 'test'))
  for (const pkg of readdirSync(join(root, 'packages'))) {
    if (existsSync(join(root, 'packages', pkg, 'test'))) walk(join(root, 'packages', pkg, 'test'))
  }
  return found.sort()
}

/**
 * Splits the test files between the projects: a file is `stress` when it carries the stress mark, and
 * otherwise `integration` when it, or a repository
 * file it imports (transitively, through the aliases too), imports a package that starts a child
 * process, a browser or a dev server, reads a build's output, or carries the integration mark.
 *
 * @example
 * const { unit, integration } = splitTestFiles(root, aliases)
 */
export function splitTestFiles(root: string, aliases: readonly SourceAlias[]): TestProjectFiles {
  const unit: string[] = []
  const integration: string[] = []
  const network: string[] = []
  const stress: string[] = []
  const reasons = new Map<string, string>()
  // Each file is read once, however many test files import it.
  const facts = new Map<string, FileFacts>()
  for (const file of findTestFiles(root)) {
    const stressReason = STRESS_MARK.exec(readFileSync(join(root, file), 'utf8'))?.[1]
    if (stressReason !== undefined) {
      reasons.set(file, `${file}: ${stressReason}`)
      stress.push(file)
      continue
    }
    const reason = integrationReason(root, join(root, file), aliases, new Set(), facts)
    if (reason === undefined) unit.push(file)
    else {
      reasons.set(file, reason)
      if (importsDirectly(root, join(root, file), NETWORK_MODULES, aliases)) network.push(file)
      else integration.push(file)
    }
  }
  return { unit, integration, network, stress, reasons }
}
