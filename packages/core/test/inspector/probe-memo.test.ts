import { describe, expect, it } from 'vitest'
import { createProbeMemo } from '../../src/inspector/probe-memo.js'

describe('createProbeMemo', () => {
  it('reuses an explanation for ttlMs, then makes a new one', async () => {
    let now = 0
    const memo = createProbeMemo<string>({ ttlMs: 30_000, now: () => now })
    let made = 0
    const make = async () => ({ value: `explanation ${++made}`, keep: true })
    expect(await memo.get('GET /a', make)).toEqual({ value: 'explanation 1', reused: false, at: 0 })
    now = 29_999
    expect(await memo.get('GET /a', make)).toEqual({ value: 'explanation 1', reused: true, at: 0 })
    expect(await memo.get('GET /b', make)).toMatchObject({ value: 'explanation 2', reused: false })
    now = 30_000
    // Expired, yet still known as the last one (for a call the budget refuses to probe again).
    expect(memo.last('GET /a')).toEqual({ value: 'explanation 1', at: 0 })
    expect(await memo.get('GET /a', make)).toEqual({ value: 'explanation 3', reused: false, at: 30_000 })
    expect(made).toBe(3)
    expect(memo.list().map((entry) => entry.value)).toEqual(['explanation 3', 'explanation 2'])
  })

  it('shares one running explanation with every caller asking meanwhile', async () => {
    const memo = createProbeMemo<number>({ now: () => 5 })
    let made = 0
    let finish: (value: { value: number; keep: boolean }) => void = () => undefined
    const make = () => {
      made += 1
      return new Promise<{ value: number; keep: boolean }>((resolve) => {
        finish = resolve
      })
    }
    const asked = Array.from({ length: 50 }, () => memo.get('k', make))
    finish({ value: 42, keep: true })
    const answers = await Promise.all(asked)
    expect(made).toBe(1)
    expect(answers.filter((answer) => !answer.reused)).toHaveLength(1)
    expect(new Set(answers.map((answer) => answer.value))).toEqual(new Set([42]))
  })

  it('does not keep what was not probed, nor a failure, and holds at most `size` entries', async () => {
    const memo = createProbeMemo<string>({ size: 2, now: () => 0 })
    await memo.get('skipped', async () => ({ value: 'not probed', keep: false }))
    expect(await memo.get('skipped', async () => ({ value: 'probed', keep: true }))).toMatchObject({
      reused: false,
      value: 'probed',
    })
    await expect(memo.get('fails', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect((await memo.get('fails', async () => ({ value: 'ok', keep: true }))).reused).toBe(false)
    await memo.get('third', async () => ({ value: 'third', keep: true }))
    expect(memo.list().map((entry) => entry.value)).toEqual(['third', 'ok'])
  })
})
