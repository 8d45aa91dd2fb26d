import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { createCallExplainer } from '../../src/inspector/call-explainer.js'
import type { CallExplanation, FailedCall } from '../../src/inspector/call-explanation.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A backend without CORS headers that notes when (by the test's clock) each request came. */
async function startBackend(clock: { now: number }) {
  const times: number[] = []
  const server = createServer((_req, res) => {
    times.push(clock.now)
    res.end('no CORS here')
  })
  const started = await listen(server)
  cleanup.push(() => started.close())
  return Object.assign(started, { times })
}

const PAGE = { origin: 'http://localhost:5173' }

describe('createCallExplainer', () => {
  it('sends one host at most 10 probe requests in any minute, however often a call fails', async () => {
    const clock = { now: 0 }
    const backend = await startBackend(clock)
    // No memo: every explanation would probe, only the budget holds them back.
    const explainer = createCallExplainer({ routes: [], now: () => clock.now, memoMs: 0 })
    const call: FailedCall = {
      url: `${backend.url}/items`,
      method: 'GET',
      headers: [],
      credentials: 'omit',
      initiator: 'fetch',
    }
    const answers: CallExplanation[] = []
    for (let second = 0; second < 200; second++) {
      clock.now = second * 1000
      const answer = await explainer.explain(call, PAGE)
      if (answer === 'busy') throw new Error('one at a time cannot be busy')
      answers.push(answer)
    }
    for (const start of backend.times) {
      expect(
        backend.times.filter((time) => time >= start && time < start + 60_000).length,
      ).toBeLessThanOrEqual(10)
    }
    // 10 at the start of each of the four minutes (0, 60, 120, 180 s).
    expect(backend.times).toHaveLength(40)
    expect(answers.filter((answer) => !answer.probe.fromMemo)).toHaveLength(40)
    // Past the budget, the repeats get the last explanation of the same call, said to be so.
    expect(answers.every((answer) => answer.kind === 'cors')).toBe(true)
    expect(answers[10]?.probe.text).toBe(
      'the same call was explained 1 s ago, not probed again: the budget for its host is spent; then: probed with GET; verdict exact: the requests the browser sent',
    )
  })

  it('waits past `atOnce` probing explanations (a refusal would be a failed request of ours), busy past `waiting`', async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const server = createServer((_req, res) => {
      void held.then(() => res.end('late'))
    })
    const backend = await listen(server)
    cleanup.push(() => backend.close())
    const explainer = createCallExplainer({ routes: [], atOnce: 2, waiting: 1 })
    const call = (path: string): FailedCall => ({
      url: `${backend.url}${path}`,
      method: 'GET',
      headers: [],
      credentials: 'omit',
      initiator: 'fetch',
    })
    const first = explainer.explain(call('/a'), PAGE)
    const second = explainer.explain(call('/b'), PAGE)
    const third = explainer.explain(call('/c'), PAGE)
    expect(await explainer.explain(call('/d'), PAGE)).toBe('busy')
    // Asked again while it runs: the running explanation is shared, not another probe.
    const sharedFirst = explainer.explain(call('/a'), PAGE)
    release()
    const [a, b, c, shared] = await Promise.all([first, second, third, sharedFirst])
    expect(a).toMatchObject({ kind: 'cors', probe: { fromMemo: false } })
    expect(b).toMatchObject({ kind: 'cors' })
    expect(c).toMatchObject({ kind: 'cors', probe: { fromMemo: false } })
    expect(shared).toMatchObject({ kind: 'cors', probe: { fromMemo: true } })
    // The turns were given back: a new call probes at once.
    expect(await explainer.explain(call('/e'), PAGE)).toMatchObject({ kind: 'cors' })
  })
})
