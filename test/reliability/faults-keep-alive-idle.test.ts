// Test project: integration (200 requests 25 to 35 ms apart: 6 s of waiting by design, 10 s and more beside a busy process)
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../support/proxy-server.js'
import { captureLogSink, sendRequest } from '../support/servers.js'
import { idleClosingTarget } from './support/idle-closing-target.js'

/*
 * The keep-alive race against a target with a 30 ms idle timeout and no `Keep-Alive` hint, asked
 * every 25 to 35 ms (faults-keep-alive-race.test.ts has the rest: the race forced on every
 * request, and the pool learning the timeout). The pool learns the timeout from the idle closes
 * and stops reusing connections before it, and the retry covers what the learning misses: with
 * neither, 4 of the 200 were 502.
 */

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

describe('a target that closes idle connections after 30 ms, without saying so', () => {
  // The pauses are the test: 200 of them take 6 s, and beside a busy process each request and
  // each timer comes late. The limit is a plain wait, not a bound on the proxy.
  it('answers 200 requests sent 25 to 35 ms apart without a 502', { timeout: 120_000 }, async () => {
    const { target } = await idleClosingTarget(30)
    cleanup.push(target.close)
    const sink = captureLogSink()
    const proxy = await serveProxy({ '/api': target.url }, { logger: sink })
    cleanup.push(proxy.close)
    const statuses = new Map<number, number>()
    for (let i = 0; i < 200; i++) {
      const { status } = await sendRequest(`${proxy.url}/api/${i}`)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 25 + (i % 11)))
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 200 })
    expect(sink.lines).toEqual([])
  })
})
