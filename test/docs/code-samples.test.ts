import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { type DocSample, docPages, samplesOf } from './doc-samples.js'

// The code samples of the docs site, checked as a reader would copy them: every JavaScript and
// TypeScript block parses, and every block that uses our packages type-checks against their
// sources (TypeScript with `strict`, JavaScript with `checkJs`), so a renamed option or export
// fails here. Frameworks that are not installed in this repository (SvelteKit, Astro, React
// Router, Nuxt) get minimal declarations of the one function each sample calls.

const root = fileURLToPath(new URL('../../', import.meta.url))
const docs = `${root}docs/`
const CODE = new Set(['ts', 'js', 'mjs', 'jsx', 'tsx'])
const samples = docPages(docs)
  .flatMap((page) => samplesOf(docs, page))
  .filter((s) => CODE.has(s.language))

/** Framework modules the repository does not install, declared as far as the samples use them. */
const FRAMEWORK_DECLARATIONS = `
declare module '@sveltejs/kit/vite' { export function sveltekit(): import('vite').Plugin[] }
declare module '@react-router/dev/vite' { export function reactRouter(): import('vite').Plugin[] }
declare module 'astro/config' { export function defineConfig(config: { vite?: import('vite').UserConfig }): unknown }
declare function defineNuxtConfig(config: Record<string, unknown>): unknown
declare module 'next' { const next: import('@cors-dev-proxy/next').NextFactory; export default next }
// What the pages' fragments take from the text around them: the routes, an Express app, a server.
declare const routes: import('@cors-dev-proxy/core').Routes
declare const app: import('express').Express
declare const server: import('node:http').Server
`

/**
 * The adapter a fragment calls without importing it, because the page introduced it before:
 * webpack's `corsDevProxy` in a `devServer` fragment, Vite's otherwise.
 */
function preludeFor(code: string): string {
  if (!/\bcorsDevProxy\b/.test(code) || /import\s*\{[^}]*\bcorsDevProxy\b/.test(code)) return ''
  const adapter = /\bdevServer\b/.test(code) ? '@cors-dev-proxy/webpack' : '@cors-dev-proxy/vite'
  return `import { corsDevProxy } from '${adapter}'\n`
}

/** Whether the sample is a module as written, rather than a fragment of a config object. */
function parsesAsModule(sample: DocSample): boolean {
  return syntaxErrors(sample.code, `sample.${extension(sample)}`).length === 0
}

function where(sample: DocSample): string {
  return `docs/${sample.page}:${sample.line}`
}

/** A sample is a module of ours when it imports one of our packages, or calls `corsDevProxy` as a fragment. */
function usesOurPackages(sample: DocSample): boolean {
  return /@cors-dev-proxy\/|from 'cors-dev-proxy'|\bcorsDevProxy\(/.test(sample.code)
}

function syntaxErrors(code: string, fileName: string): readonly ts.Diagnostic[] {
  return (
    ts.transpileModule(code, {
      fileName,
      reportDiagnostics: true,
      compilerOptions: { jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ES2022 },
    }).diagnostics ?? []
  )
}

function extension(sample: DocSample): string {
  return sample.language === 'mjs' ? 'mjs' : sample.language
}

describe('the code samples of the docs', () => {
  it('are found on the pages (at least 60 JavaScript and TypeScript blocks)', () => {
    expect(samples.length).toBeGreaterThanOrEqual(60)
  })

  it('parse, as a module or (for a fragment of a config object) as an object literal', () => {
    const broken: string[] = []
    for (const sample of samples) {
      const file = `sample.${extension(sample)}`
      if (syntaxErrors(sample.code, file).length === 0) continue
      if (syntaxErrors(`({\n${sample.code}\n})`, file).length === 0) continue
      const [first] = syntaxErrors(sample.code, file)
      broken.push(`${where(sample)}: ${ts.flattenDiagnosticMessageText(first?.messageText ?? '', ' ')}`)
    }
    expect(broken).toEqual([])
  })

  it('type-check against the packages, when they use them', { timeout: 120_000 }, () => {
    const ours = samples.filter(usesOurPackages)
    expect(ours.length).toBeGreaterThanOrEqual(30)
    const files = new Map<string, { sample: DocSample; text: string }>()
    ours.forEach((sample) => {
      // A CommonJS sample stays CommonJS: a `.cjs` file, where `require` and `module` exist.
      const cjs = /\brequire\(|module\.exports/.test(sample.code)
      const ext = cjs ? 'cjs' : { ts: 'ts', tsx: 'tsx', js: 'js', mjs: 'mjs', jsx: 'jsx' }[sample.language]
      // A titled sample keeps its file name, in a folder per page, so that the samples of one
      // code group import each other (`import config from './cors-dev-proxy.config'`).
      const folder = `${root}.doc-samples/${sample.page.replace(/[/.]/g, '_')}`
      const name =
        sample.title && !cjs ? `${folder}/${sample.title}` : `${folder}/sample_${sample.line}.${ext}`
      // A fragment of a config object (`devServer: { ... }`) is checked as the object it belongs in.
      const body = parsesAsModule(sample) ? sample.code : `export const fragment = {\n${sample.code}\n}`
      const text = cjs ? sample.code : `${preludeFor(sample.code)}${body}\nexport {}\n`
      files.set(name, { sample, text })
    })
    const declarations = `${root}.doc-samples/frameworks.d.ts`
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      allowJs: true,
      checkJs: true,
      noImplicitAny: false,
      skipLibCheck: true,
      jsx: ts.JsxEmit.Preserve,
      target: ts.ScriptTarget.ES2022,
      // Config files and pages are read by bundlers (Vite, esbuild, Rspack), which resolve
      // extensionless relative imports; so are these samples.
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
      baseUrl: root,
      paths: {
        '@cors-dev-proxy/core': ['packages/core/src/index.ts'],
        '@cors-dev-proxy/core/adapter': ['packages/core/src/adapter.ts'],
        '@cors-dev-proxy/core/client': ['packages/core/src/client/index.ts'],
        '@cors-dev-proxy/core/replay-session': ['packages/core/src/replay-session.ts'],
        '@cors-dev-proxy/core/replay-dispatcher': ['packages/core/src/replay-dispatcher.ts'],
        '@cors-dev-proxy/vite': ['packages/vite/src/index.ts'],
        '@cors-dev-proxy/webpack': ['packages/webpack/src/index.ts'],
        '@cors-dev-proxy/rsbuild': ['packages/rsbuild/src/index.ts'],
        '@cors-dev-proxy/nuxt': ['packages/nuxt/src/index.ts'],
        '@cors-dev-proxy/next': ['packages/next/src/index.ts'],
        '@cors-dev-proxy/angular': ['packages/angular/src/index.ts'],
        '@cors-dev-proxy/playwright': ['packages/playwright/src/index.ts'],
        'cors-dev-proxy': ['packages/cli/src/index.ts'],
        vite: ['node_modules/vite8/dist/node/index.d.ts'],
      },
      allowImportingTsExtensions: true,
    }
    const host = ts.createCompilerHost(options)
    const virtual = new Map([...files].map(([name, { text }]) => [name, text]))
    virtual.set(declarations, FRAMEWORK_DECLARATIONS)
    const readFile = host.readFile.bind(host)
    const fileExists = host.fileExists.bind(host)
    const getSourceFile = host.getSourceFile.bind(host)
    host.readFile = (name) => virtual.get(name) ?? readFile(name)
    host.fileExists = (name) => virtual.has(name) || fileExists(name)
    const directoryExists = host.directoryExists?.bind(host)
    host.directoryExists = (dir) =>
      [...virtual.keys()].some((name) => name.startsWith(`${dir}/`)) || (directoryExists?.(dir) ?? false)
    host.getSourceFile = (name, language, onError, create) => {
      const text = virtual.get(name)
      return text === undefined
        ? getSourceFile(name, language, onError, create)
        : ts.createSourceFile(name, text, language, true)
    }
    const program = ts.createProgram([...files.keys(), declarations], options, host)
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && files.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const { sample } = files.get(diagnostic.file?.fileName ?? '') as { sample: DocSample }
        const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 }
        return `${where(sample)} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`
      })
    expect(errors).toEqual([])
  })
})
