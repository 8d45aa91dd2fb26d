import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import { runBuiltCliHere, startCliServer } from '../support/cli-process.js'
import { startCliServerHere } from '../support/cli-server-here.js'
import { rawRequest } from '../support/raw-request.js'

/**
 * Configuration files as `serve` finds and loads them: each format from the working directory,
 * `--config`, flags over the file, and mistakes reported with exit 2. The built CLI runs in this
 * process, loaded by Node as `dist/bin.js` loads it (startCliServerHere, runBuiltCliHere), so
 * each file is imported as the binary imports it; the `.ts` file, which needs jiti and the
 * project's `node_modules`, is loaded by the binary itself in a child process.
 */

const CLI_PACKAGE = fileURLToPath(new URL('../../', import.meta.url))
let base: string
let targetA: StartedServer<ReturnType<typeof createServer>>
let targetB: StartedServer<ReturnType<typeof createServer>>

function target(name: string) {
  return listen(
    createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ target: name, url: req.url }))
    }),
  )
}

/** A project folder holding `files`, with `cors-dev-proxy` installed (a link to this package). */
function project(name: string, files: Record<string, string>): string {
  const dir = join(base, name)
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  symlinkSync(CLI_PACKAGE, join(dir, 'node_modules', 'cors-dev-proxy'), 'dir')
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'cdp-config-'))
  ;[targetA, targetB] = await Promise.all([target('A'), target('B')])
})

afterAll(async () => {
  await Promise.all([targetA?.close(), targetB?.close()])
  rmSync(base, { recursive: true, force: true })
})

/** Starts `serve` in `dir` with `args`, sends one request, stops it; returns the answer and the output. */
async function serveOnce(
  dir: string,
  args: string[],
  path = '/api/users',
  headers: Record<string, string> = {},
  start: typeof startCliServerHere = startCliServerHere,
) {
  const serve = await start(['serve', '--port', '0', ...args], { cwd: dir, built: true })
  try {
    const res = await rawRequest(serve.origin, path, {
      method: headers['access-control-request-method'] ? 'OPTIONS' : 'GET',
      headers,
    })
    return { res, output: serve.output() }
  } finally {
    expect((await serve.stop()).code).toBe(0)
  }
}

describe.concurrent('a configuration file in the working directory', () => {
  const routes = () => `{ '/api': '${targetA.url}' }`
  it.each([
    [
      'cors-dev-proxy.config.ts',
      () =>
        `import { defineConfig } from 'cors-dev-proxy'\nconst target: string = '${targetA.url}'\nexport default defineConfig({ routes: { '/api': target } })\n`,
    ],
    [
      'cors-dev-proxy.config.mts',
      () =>
        `import type { CorsDevProxyConfig } from 'cors-dev-proxy'\nconst config: CorsDevProxyConfig = { routes: ${routes()} }\nexport default config\n`,
    ],
    ['cors-dev-proxy.config.mjs', () => `export default { routes: ${routes()} }\n`],
    ['cors-dev-proxy.config.cjs', () => `module.exports = { routes: ${routes()} }\n`],
    ['cors-dev-proxy.config.json', () => JSON.stringify({ routes: { '/api': targetA.url } })],
  ])('%s is found and loaded', async (file, text) => {
    const dir = project(file.replace(/\W/g, '-'), { [file]: text() })
    // The binary in a child process, for the file that takes the most of it: jiti, and
    // `cors-dev-proxy` resolved from the project's node_modules as a user's config resolves it.
    const start = file.endsWith('.ts') ? startCliServer : startCliServerHere
    const { res, output } = await serveOnce(dir, [], undefined, undefined, start)
    expect(JSON.parse(res.body)).toEqual({ target: 'A', url: '/users' })
    expect(output).toContain(`Config:  ${file}`)
  })

  it('loads an ESM .js file in a "type": "module" project', async () => {
    const dir = project('esm-js', {
      'package.json': '{ "type": "module" }',
      'cors-dev-proxy.config.js': `import { defineConfig } from 'cors-dev-proxy'\nexport default defineConfig({ routes: ${routes()} })\n`,
    })
    const { res } = await serveOnce(dir, [])
    expect(JSON.parse(res.body)).toEqual({ target: 'A', url: '/users' })
  })
})

describe.concurrent('flags and --config', () => {
  it('lets --route and the CORS flags override the file', async () => {
    const dir = project('override', {
      'cors-dev-proxy.config.mjs': `export default { routes: { '/api': '${targetA.url}', '/a': '${targetA.url}' }, cors: { origin: 'http://other.test', maxAge: 60 } }\n`,
    })
    const args = ['--route', `/api=${targetB.url}`, '--cors-origin', 'http://localhost:5173']
    const proxied = await serveOnce(dir, args)
    expect(JSON.parse(proxied.res.body)).toEqual({ target: 'B', url: '/users' })
    const kept = await serveOnce(dir, args, '/a/x')
    expect(JSON.parse(kept.res.body)).toEqual({ target: 'A', url: '/x' })
    const preflight = await serveOnce(dir, args, '/api/users', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PUT',
    })
    expect(preflight.res.status).toBe(204)
    expect(preflight.res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(preflight.res.headers['access-control-max-age']).toBe('60')
  })

  it('reads the file --config names, relative to the working directory', async () => {
    const dir = project('explicit', {
      'cors-dev-proxy.config.json': JSON.stringify({ routes: { '/api': targetA.url } }),
      'other.json': JSON.stringify({ routes: { '/api': targetB.url } }),
    })
    const { res } = await serveOnce(dir, ['--config', 'other.json'])
    expect(JSON.parse(res.body)).toEqual({ target: 'B', url: '/users' })
  })
})

describe.concurrent('mistakes in the file: exit 2, the fix, no stack trace', () => {
  it.each([
    ['a missing --config file', {}, ['--config', 'nope.ts'], '--config nope.ts: no such file'],
    ['a file of another kind', { 'x.yaml': 'a: 1' }, ['--config', 'x.yaml'], 'cannot load a ".yaml" file'],
    [
      'a syntax error',
      { 'cors-dev-proxy.config.ts': 'export default {{' },
      [],
      'could not load cors-dev-proxy.config.ts:',
    ],
    [
      'invalid JSON',
      { 'cors-dev-proxy.config.json': '{ routes: ' },
      [],
      'could not load cors-dev-proxy.config.json:',
    ],
    [
      'an export that is not an object',
      { 'cors-dev-proxy.config.mjs': 'export default [1]' },
      [],
      'cors-dev-proxy.config.mjs must export an object of { routes, ...options }, got an array',
    ],
    [
      'a misspelled option',
      {
        'cors-dev-proxy.config.mjs':
          "export default { routes: { '/api': 'http://127.0.0.1:1' }, chageOrigin: false }",
      },
      [],
      'did you mean `changeOrigin`?',
    ],
  ])('%s', async (name, files, args, message) => {
    const dir = project(`mistake-${name.replace(/\W/g, '-')}`, files)
    const result = await runBuiltCliHere(['serve', '--port', '0', ...args], { cwd: dir })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })
})
