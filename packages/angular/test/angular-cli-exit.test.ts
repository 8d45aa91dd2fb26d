import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import {
  exitAngularCliOnConfigurationError,
  runByAngularCli,
  stopBuildersEsbuild,
} from '../src/angular-cli-exit.js'

/** A host that records what would be written and the exit code. */
function recordingHost(angularCli: boolean) {
  const seen = { written: '', code: undefined as number | undefined }
  return {
    seen,
    host: {
      angularCli,
      write: (text: string) => {
        seen.written += text
      },
      exit: (code: number) => {
        seen.code = code
      },
    },
  }
}

const MISTAKE = new CorsDevProxyError(
  'UNKNOWN_OPTION',
  "routes['/api'].changeOrgin",
  'is not an option',
  '{ changeOrigin: true }',
)

describe('exitAngularCliOnConfigurationError', () => {
  it('prints the message alone and exits 1 under the Angular CLI', () => {
    const { seen, host } = recordingHost(true)
    exitAngularCliOnConfigurationError(MISTAKE, host)
    expect(seen).toEqual({ written: `${MISTAKE.message}\n`, code: 1 })
  })

  it('does nothing elsewhere (the caller throws), nor for an error that is not a configuration mistake', () => {
    const elsewhere = recordingHost(false)
    exitAngularCliOnConfigurationError(MISTAKE, elsewhere.host)
    const other = recordingHost(true)
    exitAngularCliOnConfigurationError(new TypeError('x'), other.host)
    expect([elsewhere.seen, other.seen]).toEqual([
      { written: '', code: undefined },
      { written: '', code: undefined },
    ])
  })
})

describe('runByAngularCli', () => {
  it("knows the Angular CLI's bin, also through npm's .bin link, and nothing else", async () => {
    const root = await mkdtemp(join(tmpdir(), 'cdp-ng-bin-'))
    try {
      const bin = join(root, 'node_modules/@angular/cli/bin/ng.js')
      await mkdir(join(root, 'node_modules/@angular/cli/bin'), { recursive: true })
      await mkdir(join(root, 'node_modules/.bin'))
      await writeFile(bin, '')
      await symlink(bin, join(root, 'node_modules/.bin/ng'))
      expect(runByAngularCli(bin)).toBe(true)
      expect(runByAngularCli(join(root, 'node_modules/.bin/ng'))).toBe(true)
      expect(runByAngularCli(join(root, 'node_modules/vitest/vitest.mjs'))).toBe(false)
      expect(runByAngularCli(undefined)).toBe(false)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

describe('stopBuildersEsbuild', () => {
  it('stops the esbuild a builder loaded, the same instance, and nothing that is not loaded', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cdp-ng-esbuild-'))
    try {
      const modules = join(root, 'node_modules')
      await mkdir(join(modules, '@angular/build'), { recursive: true })
      await mkdir(join(modules, 'esbuild'), { recursive: true })
      await writeFile(
        join(modules, '@angular/build/package.json'),
        '{ "name": "@angular/build", "main": "index.js" }',
      )
      await writeFile(join(modules, '@angular/build/index.js'), "module.exports = require('esbuild')")
      await writeFile(join(modules, 'esbuild/package.json'), '{ "name": "esbuild", "main": "main.js" }')
      await writeFile(
        join(modules, 'esbuild/main.js'),
        'exports.stopped = 0; exports.stop = () => { exports.stopped++ }',
      )
      // Not loaded yet: nothing to stop, and nothing loaded by the lookup.
      stopBuildersEsbuild(root)
      const workspace = createRequire(join(root, 'package.json'))
      expect(workspace.cache[join(modules, 'esbuild/main.js')]).toBeUndefined()
      // Loaded by the builder, as the Angular CLI's build loads it: stopped once.
      const esbuild = workspace('@angular/build') as { stopped: number }
      stopBuildersEsbuild(root)
      expect(esbuild.stopped).toBe(1)
      // Another workspace, without the builders: nothing, and no throw.
      expect(() => stopBuildersEsbuild(tmpdir())).not.toThrow()
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
