import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { installCommand, packPackages } from '../../scripts/pack-local.mjs'

// The README's install path while the packages are not on the registry: `pnpm pack:local` packs
// them, and the line it prints installs one into another project with npm. This runs that line,
// as printed, in a fresh project, and then the installed CLI.

const exec = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'cdp-install-'))

afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('installing from a clone (pnpm pack:local)', () => {
  it('installs the CLI with the printed npm command, and it runs', async () => {
    const tarballs: Record<string, string> = await packPackages(root, join(folder, 'packs'))
    const project = join(folder, 'app')
    await exec('mkdir', ['-p', project])
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    )

    const command: string = installCommand(tarballs, 'cors-dev-proxy', project)
    expect(command).toMatch(
      /^npm i -D \.\.\/packs\/cors-dev-proxy-core-[\d.]+\.tgz \.\.\/packs\/cors-dev-proxy-[\d.]+\.tgz$/,
    )
    const [npm, ...args] = command.split(' ')
    await exec(npm as string, [...args, '--no-audit', '--no-fund'], { cwd: project, timeout: 120_000 })

    const { stdout } = await exec(join(project, 'node_modules/.bin/cors-dev-proxy'), ['--version'], {
      cwd: project,
    })
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  }, 150_000)
})
