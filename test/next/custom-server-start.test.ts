import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { samplesOf } from '../docs/doc-samples.js'

// `node server.mjs` with docs/frameworks/next.md's own server.mjs and a misspelt option, on the
// built package (run `pnpm build` first): the user reads our message alone and the command ends
// with exit code 1. The option is checked before `next()` is called, so a stand-in `next` package
// (one that fails loudly if it is ever called) takes the place of the real one, which only the
// framework suite installs.
const root = fileURLToPath(new URL('../..', import.meta.url))
const docsSnippet = samplesOf(join(root, 'docs'), 'frameworks/next.md').find((sample) =>
  sample.code.startsWith('// server.mjs'),
)?.code
let project: string

/** Runs `node <file>` in the project; resolves with its exit code and output. */
function runNode(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'cdp-next-server-'))
  await mkdir(join(project, 'node_modules/next'), { recursive: true })
  await mkdir(join(project, 'node_modules/@cors-dev-proxy'), { recursive: true })
  await symlink(join(root, 'packages/next'), join(project, 'node_modules/@cors-dev-proxy/next'), 'dir')
  await writeFile(join(project, 'package.json'), '{ "type": "module" }\n')
  await writeFile(join(project, 'node_modules/next/package.json'), '{ "name": "next", "main": "index.js" }\n')
  await writeFile(
    join(project, 'node_modules/next/index.js'),
    "module.exports = () => { throw new Error('next() was called: the options were not checked first') }\n",
  )
})

afterAll(async () => {
  await rm(project, { recursive: true, force: true })
})

describe("the custom server's start with a misspelt option", () => {
  it('prints our message alone, no source line or stack, and ends with exit code 1', async () => {
    expect(docsSnippet).toContain('timeout: 120_000')
    await writeFile(
      join(project, 'server.mjs'),
      (docsSnippet as string).replace('timeout: 120_000', 'timout: 120_000'),
    )
    const run = await runNode('server.mjs')
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      "[cors-dev-proxy] routes['/api'].timout is not an option; did you mean `timeout`?\n  Fix it like this: { timeout: 30000 }\n",
    )
  })

  it('leaves the error to a server.mjs that catches it, and to its exit code', async () => {
    await writeFile(
      join(project, 'caught.mjs'),
      [
        "import { createNextServer } from '@cors-dev-proxy/next'",
        "import next from 'next'",
        'try {',
        "  await createNextServer(next, { dev: true }, { '/api': { target: 'http://localhost:8080', timout: 1 } })",
        '} catch (error) {',
        "  console.log('caught', error.code)",
        '}',
        "setTimeout(() => console.log('still running'), 50)",
        '',
      ].join('\n'),
    )
    const run = await runNode('caught.mjs')
    expect(run).toEqual({ code: 0, stdout: 'caught UNKNOWN_OPTION\nstill running\n', stderr: '' })
  })
})
