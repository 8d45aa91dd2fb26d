import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { killEsbuildChildren } from '../src/kill-esbuild-children.js'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A long-running child of this process whose command is `name` (a copy of `sleep` under that name). */
function childNamed(name: string) {
  const folder = mkdtempSync(join(tmpdir(), 'cdp-esbuild-'))
  folders.push(folder)
  const program = join(folder, name)
  copyFileSync('/bin/sleep', program)
  const child = spawn(program, ['30'], { stdio: 'ignore' })
  const ended = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  )
  return { child, ended }
}

describe.runIf(process.platform !== 'win32')('killEsbuildChildren', () => {
  it('kills the children named esbuild at once, and no other', async () => {
    const esbuild = childNamed('esbuild')
    const other = childNamed('esbuild-not')
    try {
      // The child is listed once it has exec'd under its name: asked again until then (5 s at most).
      let killed: number[] = []
      for (let tries = 0; killed.length === 0 && tries < 100; tries++) {
        killed = killEsbuildChildren()
        if (killed.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(killed).toEqual([esbuild.child.pid])
      expect(await esbuild.ended).toBe('SIGKILL')
      expect(other.child.exitCode).toBeNull()
    } finally {
      esbuild.child.kill('SIGKILL')
      other.child.kill('SIGKILL')
      await other.ended
    }
  })

  it('kills nothing where this process has no esbuild child', () => {
    expect(killEsbuildChildren()).toEqual([])
  })
})
