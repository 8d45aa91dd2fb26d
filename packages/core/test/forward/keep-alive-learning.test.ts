import { describe, expect, it } from 'vitest'
import { createKeepAliveLearner } from '../../src/forward/keep-alive-learning.js'

describe('createKeepAliveLearner', () => {
  it.each([
    // [idle closes seen, timeout afterwards]
    [[], 4_000],
    [[100], 4_000], // one close is not a pattern (a restart looks the same)
    [[101, 99], 49.5], // two that agree: half of the shorter
    [[100, 300], 4_000], // two that disagree
    [[100, 300, 290], 145],
    [[3_000, 3_100], 2_000], // long timeouts keep a second's margin
    [[5_000, 5_000], 4_000], // not lower than the default by a fifth: unchanged
    [[0.4, 0.3], 1], // never below 1 ms
    [[101, 99, 3_000, 3_000], 49.5], // never raised again
  ])('after idle closes of %j ms keeps idle connections %d ms', (closes, expected) => {
    const learner = createKeepAliveLearner(4_000)
    for (const [i, idle] of closes.entries()) learner.observe(idle, i * 1_000)
    expect(learner.timeout).toBe(expected)
  })

  it('takes closes at the same moment (a restart) for one', () => {
    const learner = createKeepAliveLearner(4_000)
    // Six connections of one burst closed together 300 ms after it: a restart, or one timeout.
    for (const at of [0, 1, 1, 2, 2, 3]) expect(learner.observe(300, at)).toBe(false)
    expect(learner.timeout).toBe(4_000)
    // The same idle time seen again later is a pattern.
    expect(learner.observe(300, 2_000)).toBe(true)
    expect(learner.timeout).toBe(150)
  })

  it('says when the timeout changed, a handful of times at most', () => {
    const learner = createKeepAliveLearner(4_000)
    const changes = [3_500, 3_500, 3_000, 3_000, 100, 100, 99, 98, 10, 10, 2, 2, 1, 1].filter((idle, i) =>
      learner.observe(idle, i * 1_000),
    )
    expect(changes).toEqual([3_500, 3_000, 100, 10, 2])
    expect(learner.timeout).toBe(1)
  })
})
