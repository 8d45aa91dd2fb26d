import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { angularProxy } from '../src/angular-proxy.js'

/** The built package (`pnpm build`), as a workspace's node_modules holds it. */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url))

/**
 * The Angular CLI as far as a proxy file sees it: `node_modules/@angular/cli/bin/ng.js`, which
 * imports the file named by angular.json's `proxyConfig` (here its first argument) inside its
 * builder and, on a throw, prints it as an unhandled exception and keeps running without
 * listening, its build watcher holding the process (what `ng serve` does, P21 point 5).
 */
const FAKE_NG = `'use strict'
const { pathToFileURL } = require('node:url')
const watcher = setInterval(() => {}, 1000)
import(pathToFileURL(process.argv[3]).href).then(
  () => console.log('proxy loaded'),
  (error) => console.error('An unhandled exception occurred: ' + error.message + '\\nSee "/tmp/ng-x/angular-errors.log" for further details.'),
)
`

/** A proxy file with a misspelt option, as a user writes one. */
const PROXY_FILE = `import { angularProxy } from '@cors-dev-proxy/angular'
export default angularProxy({ '/api': { target: 'http://localhost:3000', changeOrgin: true } })
`

/** The message `angularProxy` throws for the proxy file's mistake, in this process. */
function misspeltMessage(): string {
  try {
    angularProxy({ '/api': { target: 'http://localhost:3000', changeOrgin: true } as never })
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the misspelt option to be refused')
}

/** Runs `node <main> ...args` in `cwd` until it exits or `ms` pass (then kills it): its output and exit code. */
function run(cwd: string, args: string[], ms: number) {
  return new Promise<{ stdout: string; stderr: string; code: number | null; killed: boolean }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let killed = false
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, ms)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ stdout, stderr, code, killed })
    })
  })
}

describe('a misspelt option in the proxy file under the Angular CLI', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cdp-ng-serve-exit-'))
    await mkdir(join(root, 'node_modules/@angular/cli/bin'), { recursive: true })
    await mkdir(join(root, 'node_modules/@cors-dev-proxy'), { recursive: true })
    await writeFile(join(root, 'node_modules/@angular/cli/bin/ng.js'), FAKE_NG)
    await symlink(PACKAGE, join(root, 'node_modules/@cors-dev-proxy/angular'), 'dir')
    await writeFile(join(root, 'proxy.conf.mjs'), PROXY_FILE)
    await writeFile(join(root, 'load.mjs'), "await import('./proxy.conf.mjs')\n")
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('prints our message alone and ends the command with exit code 1', async () => {
    const ng = join(root, 'node_modules/@angular/cli/bin/ng.js')
    const result = await run(root, [ng, 'serve', join(root, 'proxy.conf.mjs')], 20_000)
    expect(result.killed, `still running after 20 s; it printed:\n${result.stderr}`).toBe(false)
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`${misspeltMessage()}\n`)
    expect(result.stderr).toContain('Fix it like this: { changeOrigin: true }')
    expect(result.stdout).toBe('')
  })

  it('is thrown as usual when anything else loads the file', async () => {
    const result = await run(root, [join(root, 'load.mjs')], 20_000)
    expect(result.code).toBe(1)
    // Node's report of an uncaught error: the error's name, and its stack.
    expect(result.stderr).toContain('CorsDevProxyError')
    expect(result.stderr).toContain('changeOrgin is not an option')
  })
})
