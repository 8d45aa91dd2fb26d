import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import {
  DEBIAN_PACKAGES,
  findProgram,
  needsNode24Install,
  planDebianPackages,
} from '../../scripts/prepare-test-tools.mjs'

const root = fileURLToPath(new URL('../../', import.meta.url))
const script = `${root}scripts/prepare-test-tools.mjs`
const scratch = mkdtempSync(join(tmpdir(), 'cdp-prepare-tools-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The lines a command prints, run at the repository's root. */
function execFileSyncLines(file: string, args: string[]): string[] {
  return execFileSync(file, args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)
}

/** A directory holding empty executables with the given names, to stand for PATH. */
function fakeBin(programs: string[]): string {
  const bin = mkdtempSync(join(scratch, 'bin-'))
  for (const program of programs) {
    writeFileSync(join(bin, program), '#!/bin/sh\n')
    chmodSync(join(bin, program), 0o755)
  }
  return bin
}

describe('planDebianPackages', () => {
  const update = { file: 'apt-get', args: ['update'] }
  const install = (...names: string[]) => ({
    file: 'apt-get',
    args: ['install', '-y', ...names],
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  })

  it.each([
    { missing: [], isRoot: true, plan: { action: 'none' } },
    { missing: [], isRoot: false, plan: { action: 'none' } },
    {
      missing: ['chromium', 'nginx'],
      isRoot: true,
      plan: {
        action: 'run',
        packages: ['chromium', 'nginx'],
        commands: [update, install('chromium', 'nginx')],
      },
    },
    {
      missing: ['nginx'],
      isRoot: true,
      plan: { action: 'run', packages: ['nginx'], commands: [update, install('nginx')] },
    },
    {
      missing: ['caddy'],
      isRoot: true,
      plan: { action: 'run', packages: ['caddy'], commands: [update, install('caddy')] },
    },
  ])('missing $missing, root $isRoot → $plan.action', ({ missing, isRoot, plan }) => {
    expect(planDebianPackages({ missing, isRoot })).toEqual(plan)
  })

  it.each([
    {
      missing: ['chromium', 'nginx'],
      command: 'sudo apt-get update && sudo apt-get install -y chromium nginx',
    },
    { missing: ['chromium'], command: 'sudo apt-get update && sudo apt-get install -y chromium' },
    { missing: ['nginx'], command: 'sudo apt-get update && sudo apt-get install -y nginx' },
    {
      missing: ['nginx', 'caddy'],
      command: 'sudo apt-get update && sudo apt-get install -y nginx caddy',
    },
  ])('not root, missing $missing → refuses with the command to run', ({ missing, command }) => {
    const plan = planDebianPackages({ missing, isRoot: false })
    expect(plan.action).toBe('refuse')
    if (plan.action !== 'refuse') return
    // The command stands alone on its line, so it can be copied as is.
    expect(plan.message.split('\n').map((line) => line.trim())).toContain(command)
    for (const program of missing) expect(plan.message).toContain(program)
  })

  it('asks for a package once when two programs come from it, under its Debian name', () => {
    const packages = { nginx: 'nginx', 'chromium-headless': 'chromium', chromium: 'chromium' }
    expect(
      planDebianPackages({ missing: ['chromium', 'chromium-headless'], isRoot: true, packages }),
    ).toEqual({
      action: 'run',
      packages: ['chromium'],
      commands: [update, install('chromium')],
    })
    const refused = planDebianPackages({ missing: ['chromium-headless', 'nginx'], isRoot: false, packages })
    expect(refused.action === 'refuse' && refused.message).toMatch(/sudo apt-get install -y chromium nginx$/m)
  })

  it('throws for a program that has no Debian package in the list', () => {
    expect(() =>
      planDebianPackages({ missing: ['wrk'], isRoot: true, packages: { nginx: 'nginx' } }),
    ).toThrow('no Debian package known for "wrk"')
  })

  it('lists the programs the tests need today', () => {
    expect(DEBIAN_PACKAGES).toEqual({
      chromium: 'chromium',
      nginx: 'nginx',
      caddy: 'caddy',
      wrk: 'wrk',
      h2load: 'nghttp2-client',
      nghttp: 'nghttp2-client',
      ip: 'iproute2',
      nft: 'nftables',
      pgrep: 'procps',
    })
    expect(Object.isFrozen(DEBIAN_PACKAGES)).toBe(true)
  })

  it('lists every program a test, the benchmark or the lab runs', () => {
    // Programs named where they are run or looked up; node, pnpm, npm and git come with the
    // checkout itself, Node 24 from prepareNode24; sh, bash and tar (the packaging tests read
    // npm's tarballs) are in every Debian or Ubuntu base system.
    const given = new Set(['node', 'pnpm', 'npm', 'git', 'sh', 'bash', 'tar'])
    const sites =
      /(?:execFileSync|execFile|spawnSync|spawn|findProgram|onPath|runTool)\(\s*['"]([a-z0-9][a-z0-9_-]*)['"]/g
    const files = execFileSyncLines('git', ['ls-files', '*.ts', '*.mjs', '*.js']).filter((file) =>
      /^(test|bench|playground|packages\/[^/]+\/test)\//.test(file),
    )
    const programs = new Set<string>()
    for (const file of files) {
      for (const match of readFileSync(join(root, file), 'utf8').matchAll(sites)) {
        programs.add(match[1] as string)
      }
    }
    expect(programs.size).toBeGreaterThan(5)
    const unlisted = [...programs].filter((program) => !given.has(program) && !(program in DEBIAN_PACKAGES))
    expect(unlisted, 'add them to DEBIAN_PACKAGES in scripts/prepare-test-tools.mjs').toEqual([])
  })
})

describe('needsNode24Install', () => {
  it.each([
    [undefined, true],
    ['v24.0.0', false],
    ['v24.11.1', false],
    ['v22.15.0', true],
    ['v20.19.0', true],
    ['v25.1.0', true],
    ['v2.4.0', true],
  ])('%s → %s', (version, expected) => {
    expect(needsNode24Install(version)).toBe(expected)
  })
})

describe('findProgram', () => {
  it('finds an executable in any directory of the search path, and nothing else', () => {
    const empty = fakeBin([])
    const withNginx = fakeBin(['nginx'])
    const notExecutable = join(withNginx, 'chromium')
    writeFileSync(notExecutable, '')
    chmodSync(notExecutable, 0o644)
    const searchPath = [empty, '', withNginx].join(delimiter)
    expect(findProgram('nginx', searchPath)).toBe(join(withNginx, 'nginx'))
    expect(findProgram('chromium', searchPath)).toBeUndefined()
    expect(findProgram('nginx', empty)).toBeUndefined()
  })
})

describe('prepare-test-tools.mjs as a process', () => {
  // PATH points at the fake directory too: should the non-root override ever break, the script
  // finds no apt-get to run instead of installing packages on the test machine.
  const run = (env: { CDP_TOOLS_PATH: string; CDP_TOOLS_NOT_ROOT: string }) =>
    promisify(execFile)(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, PATH: env.CDP_TOOLS_PATH, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('refuses at once when not root and nothing is installed, printing the command to run', async () => {
    const result = await run({ CDP_TOOLS_PATH: fakeBin([]), CDP_TOOLS_NOT_ROOT: '1' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      '\n  sudo apt-get update && sudo apt-get install -y chromium nginx caddy wrk nghttp2-client iproute2 nftables procps\n',
    )
    // Refused before the Node 24 step, which could otherwise download.
    expect(result.stdout).not.toContain('Node 24')
  })

  it('asks only for what is missing', async () => {
    const result = await run({ CDP_TOOLS_PATH: fakeBin(['chromium', 'nginx']), CDP_TOOLS_NOT_ROOT: '1' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      '\n  sudo apt-get update && sudo apt-get install -y caddy wrk nghttp2-client iproute2 nftables procps\n',
    )
    expect(result.stderr).not.toContain('install -y chromium')
    expect(result.stderr).not.toContain('nginx')
  })
})
