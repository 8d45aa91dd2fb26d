import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import { exitAngularCliOnConfigurationError, runByAngularCli } from '../src/angular-cli-exit.js'

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
