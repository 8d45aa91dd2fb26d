import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { type CorsDevProxyConfig, createFetchHandler, type RouteOptions } from '@cors-dev-proxy/core'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectBody, listen } from '../support/servers.js'
import { samplesOf } from './doc-samples.js'

/*
 * The "From dev to CI" guide (docs/guide/dev-to-ci.md), followed as a team would: a project in a
 * folder of its own (removed after) gets the page's own cors-dev-proxy.config.ts, vitest.config.ts
 * and the two Vitest files, and a node_modules holding what it would install (links to the built
 * `cors-dev-proxy` and `@cors-dev-proxy/core`, and the CLI package's msw). A session is recorded
 * through that config (record: 'missing') from a live backend (list, create, list, the lists with a
 * cache-busting `?_t=`), the page's `pretest` script runs the real CLI, and then the two test files
 * type-check and pass in a Vitest of their own, with the backend gone: one through MSW and the
 * exported handlers, one through replayDispatcher. Last, the nightly workflow's two
 * `recordings verify` lines run as written against stand-ins for staging, for the exit codes the
 * page's table gives. Needs `pnpm build` (the CLI and the core's dist).
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const PAGE = 'guide/dev-to-ci.md'
const exec = promisify(execFile)

/** The page's code sample titled `title` (`ts [src/items.test.ts]`). */
function pageSample(title: string): string {
  const sample = samplesOf(join(root, 'docs'), PAGE).find((candidate) => candidate.title === title)
  if (sample === undefined) throw new Error(`docs/${PAGE} has no sample titled [${title}]`)
  return sample.code
}

const FILES = ['cors-dev-proxy.config.ts', 'vitest.config.ts', 'src/items.test.ts', 'src/items.node.test.ts']

/** What `npm i` would have put in the project's node_modules: links to this repository's packages. */
const INSTALLED: Record<string, string> = {
  'cors-dev-proxy': 'packages/cli',
  '@cors-dev-proxy/core': 'packages/core',
  msw: 'packages/cli/node_modules/msw',
}

let project: string

async function writeProject(): Promise<void> {
  const scripts = (JSON.parse(pageSample('package.json')) as { scripts: Record<string, string> }).scripts
  await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module', scripts }, null, 2))
  for (const file of FILES) {
    await mkdir(dirname(join(project, file)), { recursive: true })
    await writeFile(join(project, file), pageSample(file))
  }
  for (const [name, folder] of Object.entries(INSTALLED)) {
    await mkdir(dirname(join(project, 'node_modules', name)), { recursive: true })
    await symlink(join(root, folder), join(project, 'node_modules', name), 'dir')
  }
}

/** A backend with a list of items: `GET /items`, and `POST /items` to add one (201). */
function itemsBackend(items: object[] = []) {
  return listen(
    createServer(async (req, res) => {
      lastAuthorization = req.headers.authorization
      const body = (await collectBody(req)).toString()
      res.setHeader('content-type', 'application/json')
      if (req.method === 'POST' && req.url === '/items') {
        const item = { id: items.length + 1, ...(JSON.parse(body) as object) }
        items.push(item)
        res.writeHead(201).end(JSON.stringify(item))
      } else if (req.url?.split('?')[0] === '/items') res.end(JSON.stringify(items))
      else res.writeHead(404).end('{}')
    }),
  )
}

let lastAuthorization: string | undefined

/**
 * Step 1 of the page: the dev server's route, from the page's config as `npm run dev` reads it
 * (`record: 'missing'`), records a session: the list after the new create goes to the backend too.
 */
async function recordSession(): Promise<void> {
  const configUrl = pathToFileURL(join(project, 'cors-dev-proxy.config.ts')).href
  const config = ((await import(/* @vite-ignore */ configUrl)) as { default: CorsDevProxyConfig }).default
  const route = config.routes['/api'] as RouteOptions
  expect(route).toMatchObject({ target: 'http://localhost:3000', record: 'missing' })
  const backend = await itemsBackend()
  // Where the dev server of the project would write: its default folder under the project.
  const proxy = createFetchHandler({
    ...config,
    routes: { '/api': { ...route, target: backend.url } },
    log: 'silent',
    recordings: { dir: join(project, 'cors-dev-proxy/recordings') },
  })
  const call = async (method: string, path: string, body?: string) => {
    const headers = body === undefined ? undefined : { 'content-type': 'application/json' }
    const response = await proxy(new Request(`http://localhost:5173${path}`, { method, headers, body }))
    await response?.text()
  }
  await call('GET', '/api/items?_t=1')
  await call('POST', '/api/items', '{"name":"first"}')
  await call('GET', '/api/items?_t=2')
  await proxy.close()
  await backend.close()
}

/** Step 3 of the page: its `pretest` script (the same as `prestorybook`), run with the built CLI. */
async function exportHandlers(): Promise<{ stdout: string }> {
  const { scripts } = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  expect(scripts.prestorybook).toBe(scripts.pretest)
  const [command, ...args] = (scripts.pretest ?? '').split(' ')
  expect(command).toBe('cors-dev-proxy')
  const bin = join(project, 'node_modules/cors-dev-proxy/dist/bin.js')
  return exec(process.execPath, [bin, ...args], { cwd: project })
}

let exported: { stdout: string }

beforeAll(async () => {
  // Inside the repository, so that the project's files find vitest, undici and @types/node above
  // it; in test-results, which git, Biome, tsc and this repository's Vitest globs all leave alone.
  await mkdir(join(root, 'test-results'), { recursive: true })
  project = await mkdtemp(join(root, 'test-results/dev-to-ci-'))
  await writeProject()
  await recordSession()
  exported = await exportHandlers()
}, 120_000)

afterAll(async () => {
  if (project !== undefined) await rm(project, { recursive: true, force: true })
})

/** The project's files type-checked as its editor would: strict, its node_modules, no paths of ours. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(
    files.map((file) => join(project, file)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
    },
  )
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(project.length + 1)}: ` : ''
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`
  })
}

describe('the "From dev to CI" guide', () => {
  it("records one file per request, the cache-busting ?_t= left out by the route's match", async () => {
    const folder = join(project, 'cors-dev-proxy/recordings/api')
    const files = (await readdir(folder)).sort()
    expect(files).toEqual([expect.stringMatching(/^GET-items\./), expect.stringMatching(/^POST-items\./)])
    const list = JSON.parse(await readFile(join(folder, files[0] as string), 'utf8')) as {
      request: { path: string }
      answers: unknown[]
    }
    expect(list.request.path).toBe('/items')
    expect(list.answers).toHaveLength(2)
  })

  it("exports the MSW handlers with the page's pretest script, the real CLI", () => {
    expect(exported.stdout).toContain(
      `wrote ${join(project, 'src/mocks/api-handlers.ts')}: MSW handlers for /api from 2 recording files and 0 mocks`,
    )
  })

  it('has Vitest files that type-check against the exported module and the packages', () => {
    expect(typeErrors(['src/items.test.ts', 'src/items.node.test.ts', 'vitest.config.ts'])).toEqual([])
  })

  it('has Vitest files that pass with no backend: MSW with the handlers, and replayDispatcher', async () => {
    const vitest = join(root, 'node_modules/vitest/vitest.mjs')
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
    // This run's own Vitest variables would make the project's Vitest think it is a worker of it.
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name]
    const run = await exec(process.execPath, [vitest, 'run', '--reporter', 'verbose'], {
      cwd: project,
      env,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
      }),
    )
    expect(run, run.output).toMatchObject({ code: 0 })
    expect(run.output).toMatch(/✓ src\/items\.test\.ts > lists the item after creating it/)
    expect(run.output).toMatch(/✓ src\/items\.node\.test\.ts > lists the item after creating it/)
    expect(run.output).toMatch(/Tests\s+2 passed \(2\)/)
  }, 120_000)
})

/** The nightly workflow's `recordings verify` lines, as the page writes them (`npx cors-dev-proxy ...`). */
function verifyCommands(): string[][] {
  const yaml = samplesOf(join(root, 'docs'), PAGE).find(
    (sample) => sample.language === 'yaml' && sample.code.includes('recordings verify'),
  )
  const lines = [...(yaml?.code ?? '').matchAll(/npx cors-dev-proxy (recordings verify .*)$/gm)]
  // The shell's part: words, "quoted" ones whole, $VARIABLES from the job's env.
  const env: Record<string, string> = { STAGING: staging, API_TOKEN: 'from-ci-secrets' }
  return lines.map((line) =>
    [...(line[1] ?? '').matchAll(/"([^"]*)"|(\S+)/g)].map((word) =>
      (word[1] ?? word[2] ?? '').replace(/\$(\w+)/g, (_, name: string) => env[name] ?? ''),
    ),
  )
}

let staging = ''

/** Runs the built CLI in the project with `args`; its exit code and output. */
function cli(args: string[]): Promise<{ code: number; output: string }> {
  const bin = join(project, 'node_modules/cors-dev-proxy/dist/bin.js')
  return exec(process.execPath, [bin, ...args], { cwd: project }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  )
}

describe("the guide's nightly drift job", () => {
  it('exits 0 on no drift, 1 on drift (then --update rewrites and exits 0), 2 when staging does not answer', async () => {
    const recordings = join(project, 'cors-dev-proxy/recordings')
    const kept = `${recordings}.kept`
    await cp(recordings, kept, { recursive: true })
    try {
      const same = await itemsBackend([{ id: 7, name: 'seventh' }])
      staging = same.url
      const [verify, update] = verifyCommands()
      expect(update).toEqual([...(verify ?? []), '--update'])
      const clean = await cli(verify ?? [])
      expect(clean, clean.output).toMatchObject({ code: 0 })
      expect(lastAuthorization).toBe('Bearer from-ci-secrets')
      await same.close()

      const drifted = await itemsBackend([{ id: '7', title: 'seventh' }])
      staging = drifted.url
      const drift = await cli(verifyCommands()[0] ?? [])
      expect(drift.code, drift.output).toBe(1)
      expect(drift.output).toMatch(/GET \/items: .*name missing/)
      const rewritten = await cli(verifyCommands()[1] ?? [])
      expect(rewritten, rewritten.output).toMatchObject({ code: 0 })
      expect(await cli(verifyCommands()[0] ?? [])).toMatchObject({ code: 0 })
      await drifted.close()

      const down = await cli(verifyCommands()[0] ?? [])
      expect(down.code, down.output).toBe(2)
    } finally {
      await rm(recordings, { recursive: true, force: true })
      await cp(kept, recordings, { recursive: true })
      await rm(kept, { recursive: true, force: true })
    }
  }, 120_000)
})
