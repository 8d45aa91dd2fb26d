import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import express from 'express'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unclaimedPort } from '../support/unclaimed-port.mjs'
import { ROOT } from './built-docs.js'
import { type DocSample, docPages, samplesOf } from './doc-samples.js'
import {
  asNodeModule,
  type SampleBackend,
  startSample,
  startSampleBackend,
  writeSampleFile,
} from './run-doc-sample.js'

// Every code sample of the framework pages (docs/frameworks/*.md) runs, not only type-checks
// (code-samples.test.ts does that): the dev-server configurations are loaded as the page prints
// them and a request is sent through the server they make to a backend on port 0. A framework
// the repository does not install (SvelteKit, React Router, Astro) is replaced by a stand-in
// for its own plugin only, so the sample's call of ours runs as written; what needs the framework
// itself (Next, Nuxt, Angular CLI, Bun, a page component) is run by the framework suite
// (test/frameworks), whose app is named here and must exist.

/** How a sample is run, or which app of the framework suite runs what it shows. */
type Runner =
  | { kind: 'vite-config' }
  | { kind: 'angular-proxy' }
  | { kind: 'storybook-middleware' }
  | { kind: 'storybook-preview-head' }
  | { kind: 'server-fetch'; call: 'load' | 'loader' }
  | { kind: 'rsbuild-config' }
  | { kind: 'node-server'; port: string }
  | { kind: 'fetch-handler-test' }
  | { kind: 'suite'; app: string; why: string }

/** The frameworks' modules this repository does not install, as far as the samples call them. */
const STAND_INS: Record<string, string> = {
  '@sveltejs/kit/vite': 'export const sveltekit = () => []',
  '@react-router/dev/vite': 'export const reactRouter = () => []',
  'astro/config': 'export const defineConfig = (config) => config',
}

/** The runner of each sample, by page and first line of its code. */
function runnerOf(sample: DocSample): Runner {
  const { page, code } = sample
  if (page === 'frameworks/fetch-handler.md') {
    if (code.includes('Bun.serve')) return { kind: 'suite', app: 'bun', why: 'Bun is not installed here' }
    return { kind: 'fetch-handler-test' }
  }
  if (page === 'frameworks/next.md')
    return { kind: 'suite', app: nextApp(code), why: 'Next is not installed here' }
  if (page === 'frameworks/nuxt.md') return { kind: 'suite', app: 'nuxt', why: 'Nuxt is not installed here' }
  // A route module's data function that calls serverFetch: called while a dev server runs.
  if (/^export async function (load|loader)\(/m.test(code) && code.includes("from '@cors-dev-proxy/core'")) {
    return { kind: 'server-fetch', call: code.includes('function loader(') ? 'loader' : 'load' }
  }
  if (/^\/\/ (src|app)\//m.test(code) || sample.language === 'jsx') {
    return {
      kind: 'suite',
      app: page.replace(/^frameworks\/|\.md$/g, ''),
      why: "a page or a route module of the framework's app",
    }
  }
  if (code.includes('app.listen(5173)')) return { kind: 'node-server', port: '5173' }
  if (code.includes('angularProxy(')) return { kind: 'angular-proxy' }
  if (code.includes('storybookMiddleware(')) return { kind: 'storybook-middleware' }
  if (code.includes('previewHead: storybookPreviewHead')) return { kind: 'storybook-preview-head' }
  if (code.includes('pluginCorsDevProxy(')) return { kind: 'rsbuild-config' }
  return { kind: 'vite-config' }
}

/** The framework suite's Next app that runs a next.md sample. */
function nextApp(code: string): string {
  if (code.includes('createNextProxy') || code.includes('proxyClientMaxBodySize')) return 'next-proxy-ts'
  return 'next'
}

const samples = docPages(join(ROOT, 'docs'))
  .filter((page) => page.startsWith('frameworks/'))
  .flatMap((page) => samplesOf(join(ROOT, 'docs'), page))
  .filter((sample) => ['js', 'mjs', 'ts', 'jsx', 'tsx'].includes(sample.language))

/** The sample with its backend (`localhost:3000` or `:8080`) swapped for `backend`. */
function withBackend(code: string, backend: SampleBackend): string {
  const swapped = code.replace(/localhost:(3000|8080)/g, `127.0.0.1:${backend.port}`)
  if (swapped === code) throw new Error('the sample names no backend on localhost:3000 or :8080')
  return swapped
}

/**
 * The first `json` block after `sample` on its page, its backend swapped, written as
 * `proxy.conf.json` in the folder the samples are imported from (where `require('./proxy.conf.json')`
 * finds it).
 */
function writeProxyConfJson(sample: DocSample, backend: SampleBackend): void {
  const json = samplesOf(join(ROOT, 'docs'), sample.page).find(
    (candidate) => candidate.line > sample.line && candidate.language === 'json',
  )
  if (json === undefined)
    throw new Error(`docs/${sample.page}: no proxy.conf.json block after line ${sample.line}`)
  const folder = join(ROOT, 'test-results/doc-samples')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'proxy.conf.json'), withBackend(json.code, backend))
}

/**
 * The sample as a module this test imports: its types removed, `vite` as the root's `vite8`,
 * stand-ins for the frameworks not installed here, in a git-ignored folder inside the repository
 * (so the root's packages resolve, and our packages from their sources, as the tests take them).
 */
async function importSample(sample: DocSample, code: string): Promise<Record<string, unknown>> {
  const folder = join(ROOT, 'test-results/doc-samples')
  mkdirSync(folder, { recursive: true })
  let js = ts.transpileModule(code, {
    // JSX as React.createElement: the component is not rendered here, only the module's loader runs.
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      jsx: ts.JsxEmit.React,
    },
    fileName: `sample.${sample.language}`,
  }).outputText
  js = js.replaceAll("from 'vite'", "from 'vite8'")
  for (const [name, text] of Object.entries(STAND_INS)) {
    const file = join(folder, `${name.replace(/\W/g, '_')}.mjs`)
    writeFileSync(file, `${text}\n`)
    js = js.replaceAll(`'${name}'`, `'${pathToFileURL(file).href}'`)
  }
  const file = join(folder, `${sample.page.replace(/\W/g, '_')}_${sample.line}.mjs`)
  writeFileSync(file, js)
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>
}

/** A server this test started, closed after its test. */
const opened: Array<() => Promise<void>> = []

/** Sends a GET for `/api/items` through the server at `origin` and returns what the backend said. */
async function expectProxiedItems(origin: string): Promise<void> {
  const answer = await fetch(`${origin}/api/items`, { headers: { accept: 'application/json' } })
  expect(answer.status).toBe(200)
  expect(((await answer.json()) as { path: string }).path).toMatch(/\/items$/)
}

/** Starts Vite 8 with `config` (a sample's), on 127.0.0.1 port 0, and returns its origin. */
async function startVite(config: Record<string, unknown>): Promise<string> {
  const { createServer } = await import('vite8')
  const server = (config.server ?? {}) as Record<string, unknown>
  const vite = await createServer({
    ...config,
    configFile: false,
    root: join(ROOT, 'test-results/doc-samples'),
    logLevel: 'silent',
    server: { ...server, host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  })
  await vite.listen()
  opened.push(() => vite.close())
  const address = vite.httpServer?.address() as AddressInfo
  return `http://127.0.0.1:${address.port}`
}

let backend: SampleBackend
beforeAll(async () => {
  backend = await startSampleBackend()
})
afterAll(async () => {
  for (const close of opened.splice(0)) await close()
  await backend?.close()
})

describe('the code samples of the framework pages', () => {
  it('are found (at least 25), each run here or by a framework suite app that exists', () => {
    expect(samples.length).toBeGreaterThanOrEqual(25)
    const elsewhere = samples
      .map((sample) => ({ where: `docs/${sample.page}:${sample.line}`, runner: runnerOf(sample) }))
      .filter(({ runner }) => runner.kind === 'suite' || runner.kind === 'fetch-handler-test')
    for (const { where, runner } of elsewhere) {
      if (runner.kind === 'suite')
        expect(existsSync(join(ROOT, 'test/frameworks/apps', runner.app)), where).toBe(true)
    }
    // The Fetch handler's Hono and Deno servers, by their headings there.
    expect(elsewhere.filter(({ runner }) => runner.kind === 'fetch-handler-test')).toHaveLength(2)
  })

  it("fetch-handler.md ## Deno: the suite app starts Deno with the page's command", () => {
    const page = readFileSync(join(ROOT, 'docs/frameworks/fetch-handler.md'), 'utf8')
    const command = /Run it with `deno (run [^`]*) server\.ts`/.exec(page)?.[1]?.split(' ') ?? []
    expect(command).toContain('--unstable-no-legacy-abort')
    const app = readFileSync(join(ROOT, 'test/frameworks/apps/deno/app.mjs'), 'utf8')
    for (const word of command) expect(app).toContain(`'${word}'`)
  })

  // What a page shows that only the framework runs: the suite app's file has it token for token
  // (a statement of the page, or its one line that wires our package beside the suite's routes).
  it.each([
    ['angular.md', 'if (isDevMode())', 'angular/src/main.ts', 'statement'],
    ['nuxt.md', "modules: ['@cors-dev-proxy/nuxt']", 'nuxt/nuxt.config.ts', 'line'],
  ])('%s: the framework suite app has `%s` as the page shows it', (page, start, file, extent) => {
    const sample = samplesOf(join(ROOT, 'docs'), `frameworks/${page}`).find((candidate) =>
      candidate.code.includes(start),
    ) as DocSample
    const rest = sample.code.slice(sample.code.indexOf(start))
    const shown = (extent === 'line' ? rest.split('\n')[0] : rest.split('\n\n')[0]) as string
    expect(tokens(readFileSync(join(ROOT, 'test/frameworks/apps', file), 'utf8'))).toContain(tokens(shown))
  })

  // The suite's apps proxy the suite's routes and serve their page, so they are not the page's
  // files; what the page shows of the runtime's wiring is theirs word for word.
  it.each([
    ['## Hono', 'hono/server.mjs', 'app.use('],
    ['## Bun', 'bun/server.mjs', 'websocket: {'],
  ])('fetch-handler.md %s: the suite app wires the proxy as the page shows', (heading, file, start) => {
    const page = samplesOf(join(ROOT, 'docs'), 'frameworks/fetch-handler.md')
    const line = readFileSync(join(ROOT, 'docs/frameworks/fetch-handler.md'), 'utf8')
      .split('\n')
      .indexOf(heading)
    const sample = page.find((candidate) => candidate.line > line + 1) as DocSample
    const app = readFileSync(join(ROOT, 'test/frameworks/apps', file), 'utf8')
    expect(blockOf(app, start)).toBe(blockOf(sample.code, start))
  })

  for (const sample of samples) {
    const runner = runnerOf(sample)
    const where = `docs/${sample.page}:${sample.line}`
    // Listed by the first test, run elsewhere.
    if (runner.kind === 'suite' || runner.kind === 'fetch-handler-test') continue
    it(`${where} (${runner.kind}): a request goes through it to the backend`, async () => {
      switch (runner.kind) {
        case 'vite-config': {
          const module = await importSample(sample, withBackend(sample.code, backend))
          let config = module.default as Record<string, unknown>
          // Astro's config holds Vite's under `vite`; Storybook makes it in `viteFinal`.
          if (typeof config.viteFinal === 'function') config = await config.viteFinal({})
          else if (config.vite !== undefined) config = config.vite as Record<string, unknown>
          await expectProxiedItems(await startVite(config))
          break
        }
        case 'angular-proxy': {
          // What `ng serve` does with the file's export: Vite's server.proxy. A sample that reads
          // `./proxy.conf.json` gets the JSON block the page shows next, beside it.
          const reads = sample.code.includes("('./proxy.conf.json')")
          if (reads) writeProxyConfJson(sample, backend)
          const module = await importSample(sample, reads ? sample.code : withBackend(sample.code, backend))
          await expectProxiedItems(await startVite({ server: { proxy: module.default } }))
          break
        }
        case 'storybook-middleware': {
          // Storybook calls the export with its router (Express's) at start-up.
          const module = await importSample(sample, withBackend(sample.code, backend))
          const app = express()
          ;(module.default as (router: unknown) => void)(app)
          const server: Server = await new Promise((resolve) => {
            const started = app.listen(0, '127.0.0.1', () => resolve(started))
          })
          opened.push(() => new Promise((resolve) => server.close(() => resolve())))
          await expectProxiedItems(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
          break
        }
        case 'storybook-preview-head': {
          const module = await importSample(sample, sample.code)
          const head = (module.default as { previewHead: (head: string) => string }).previewHead('<meta>')
          expect(head).toContain('<script type="module" src="/__cors-dev-proxy/client.js"></script>')
          break
        }
        case 'server-fetch': {
          // The page's route module, in a dev server with the route it calls (serverFetch finds
          // the dev server by the URL it publishes when it listens).
          const { corsDevProxy } = await import('@cors-dev-proxy/vite')
          const origin = await startVite({ plugins: [corsDevProxy({ '/api': backend.url })] })
          const module = await importSample(sample, sample.code)
          const call = module[runner.call] as (event: unknown) => Promise<unknown>
          // SvelteKit's own `fetch` of a load, as it reaches a relative URL on the dev server.
          const data = await call({ fetch: (path: string) => fetch(new URL(path, origin)) })
          expect(JSON.stringify(data)).toContain('"path":"/items"')
          break
        }
        case 'rsbuild-config': {
          const module = await importSample(sample, withBackend(sample.code, backend))
          await expectProxiedItems(await startRsbuild(module.default as Record<string, unknown>))
          break
        }
        case 'node-server': {
          // A whole server script: run by Node as its own process, our packages from their builds.
          const port = await unclaimedPort()
          const code = withBackend(sample.code, backend).replace(`listen(${runner.port})`, `listen(${port})`)
          const js = asNodeModule(code)
            .replaceAll(
              "'@cors-dev-proxy/vite'",
              `'${pathToFileURL(join(ROOT, 'packages/vite/dist/index.js')).href}'`,
            )
            .replaceAll("from 'vite'", "from 'vite8'")
          const file = writeSampleFile(`${sample.page.replace(/\W/g, '_')}_${sample.line}.mjs`, js)
          const running = await startSample(process.execPath, [file], { cwd: ROOT, port })
          opened.push(() => running.stop())
          await expectProxiedItems(`http://127.0.0.1:${port}`)
          break
        }
      }
    }, 60_000)
  }
})

/** Starts Rsbuild's dev server with `config` (a sample's) and an empty entry, and returns its origin. */
async function startRsbuild(config: Record<string, unknown>): Promise<string> {
  const { createRsbuild } = await import('@rsbuild/core')
  const cwd = join(ROOT, 'test-results/doc-samples/rsbuild')
  mkdirSync(join(cwd, 'src'), { recursive: true })
  writeFileSync(join(cwd, 'src/index.js'), '')
  const rsbuild = await createRsbuild({
    cwd,
    rsbuildConfig: {
      ...config,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: await unclaimedPort() },
      dev: { hmr: false, liveReload: false },
    },
  })
  const { port, server } = await rsbuild.startDevServer()
  opened.push(() => server.close())
  return `http://127.0.0.1:${port}`
}

/**
 * The last statement of `code` that starts with `start` (after any `declare` of the runtime's
 * types), up to its closing bracket, without comments
 * and with its white space collapsed: what two files must share word for word.
 */
function blockOf(code: string, start: string): string {
  const from = code.lastIndexOf(start)
  if (from < 0) return `(no ${start})`
  let depth = 0
  let end = from
  for (let i = from; i < code.length; i++) {
    const char = code[i]
    if (char === '(' || char === '{' || char === '[') depth++
    else if (char === ')' || char === '}' || char === ']') {
      depth--
      if (depth === 0) {
        end = i + 1
        break
      }
    }
  }
  return code
    .slice(from, end)
    .replace(/\/\/.*$/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Code as its tokens: comments, white space and the trailing commas a formatter adds removed. */
function tokens(code: string): string {
  return code
    .replace(/\/\/.*$/gm, '')
    .replace(/,(\s*[)\]}])/g, '$1')
    .replace(/\s+/g, '')
}
