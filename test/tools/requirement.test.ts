import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { isCi, programRequirement } from '../support/requirement.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const config = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url))

/** Runs the fixture suite in a vitest of its own, with `CI` set or not. */
async function runFixture(ci: string | undefined): Promise<{ code: number; output: string }> {
  const env = { ...process.env, CI: ci, NO_COLOR: '1', FORCE_COLOR: '0' }
  if (ci === undefined) delete env.CI
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
  return promisify(execFile)(process.execPath, [vitest, 'run', '--config', config], { cwd: root, env }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  )
}

describe('isCi', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', true],
    ['TRUE', true],
  ])('CI=%s → %s', (value, expected) => {
    expect(isCi(value === undefined ? {} : { CI: value })).toBe(expected)
  })
})

describe('skipUnmet', () => {
  it('skips, saying so, on a developer machine', async () => {
    const { code, output } = await runFixture(undefined)
    expect(code).toBe(0)
    expect(output).toContain(
      'SKIPPED (not passed): the widget tests: widget is not installed (apt-get install -y widget)',
    )
  }, 60_000)

  it('fails under CI with the reason and the install command, instead of skipping', async () => {
    const { code, output } = await runFixture('true')
    expect(code).toBe(1)
    expect(output).toContain(
      'the widget tests cannot run: widget is not installed (apt-get install -y widget)',
    )
    expect(output).not.toContain('SKIPPED')
  }, 60_000)
})

describe('programRequirement', () => {
  it('names the program and its Debian package when it is missing', () => {
    expect(programRequirement('caddy', undefined, 'caddy')).toEqual({
      ok: false,
      reason: '`caddy` is not on PATH (Debian/Ubuntu: apt-get install -y caddy)',
    })
    expect(programRequirement('caddy', '/usr/bin/caddy', 'caddy')).toEqual({ ok: true })
  })
})
