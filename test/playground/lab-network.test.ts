import { execFileSync, spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { createLabNetwork, labNetworkSupport } from '../../playground/lab/lab-network.mjs'
import { skipUnmet } from '../support/requirement.js'

/*
 * The lab's network namespace never outlives its run: gone after close(), and gone when the
 * process that made it is interrupted (SIGINT) with nobody else handling the signal.
 */

const skip = skipUnmet('lab network clean-up', labNetworkSupport())

const namespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
const labModule = new URL('../../playground/lab/lab-network.mjs', import.meta.url).href

describe.skipIf(skip)('the lab network', () => {
  it('keeps its nftables rules in its own namespace and deletes it on close()', async () => {
    const before = execFileSync('nft', ['list', 'ruleset'], { encoding: 'utf8' })
    const lab = await createLabNetwork({ lifetimeMs: 30_000 })
    await lab.setLoss(2)
    await lab.blockUdp(true)
    expect(await lab.rules()).toContain('numgen random mod 100 < 2 drop')
    expect(execFileSync('nft', ['list', 'ruleset'], { encoding: 'utf8' })).toBe(before)
    expect(namespaces()).toContain(lab.name)
    await lab.close()
    expect(namespaces()).not.toContain(lab.name)
  })

  it('is deleted when its process is interrupted', async () => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { createLabNetwork } = await import(${JSON.stringify(labModule)}); const lab = await createLabNetwork({ lifetimeMs: 30_000 }); console.log(lab.name); setInterval(() => {}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const name = await new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
    )
    expect(namespaces()).toContain(name)
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    child.kill('SIGINT')
    expect(await exited).toBe('SIGINT')
    expect(namespaces()).not.toContain(name)
  })
})
