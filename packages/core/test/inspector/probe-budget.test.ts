import { describe, expect, it } from 'vitest'
import { createProbeBudget } from '../../src/inspector/probe-budget.js'

describe('createProbeBudget', () => {
  it('grants at most `limit` requests per host in any window, whole reservations only', () => {
    let now = 1_000_000
    const budget = createProbeBudget({ limit: 10, windowMs: 60_000, now: () => now })
    for (let index = 0; index < 3; index++) expect(budget.take('api.test', 2)).toEqual({ granted: true })
    now += 30_000
    for (let index = 0; index < 2; index++) expect(budget.take('api.test', 2)).toEqual({ granted: true })
    // Full: nothing more for this host, not even one request; another host has its own budget.
    expect(budget.take('api.test', 1)).toEqual({ granted: false, used: 10, retryInMs: 30_000 })
    expect(budget.take('other.test', 2)).toEqual({ granted: true })
    // A sliding window: the first six expire at +60 s, the last four at +90 s.
    now += 30_000
    expect(budget.take('api.test', 6)).toEqual({ granted: true })
    expect(budget.take('api.test', 1)).toEqual({ granted: false, used: 10, retryInMs: 30_000 })
  })

  it('refuses a reservation that does not fit whole, and names when it would', () => {
    let now = 0
    const budget = createProbeBudget({ limit: 3, windowMs: 1000, now: () => now })
    expect(budget.take('h', 1).granted).toBe(true)
    now = 400
    expect(budget.take('h', 1).granted).toBe(true)
    // Two more need the first to expire (at 1000): 600 ms from now.
    expect(budget.take('h', 2)).toEqual({ granted: false, used: 2, retryInMs: 600 })
    expect(budget.take('h', 1).granted).toBe(true)
  })

  it('takes back what a probe reserved and did not send', () => {
    const budget = createProbeBudget({ limit: 2, now: () => 0 })
    expect(budget.take('h', 2).granted).toBe(true)
    budget.giveBack('h', 1)
    expect(budget.take('h', 1).granted).toBe(true)
    expect(budget.take('h', 1).granted).toBe(false)
    budget.giveBack('nobody', 3)
    expect(budget.take('nobody', 2).granted).toBe(true)
  })
})
