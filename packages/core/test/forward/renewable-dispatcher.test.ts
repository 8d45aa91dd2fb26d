import { Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import {
  generationOf,
  RESETS_BEFORE_NEW_CONNECTIONS,
  RenewableDispatcher,
  streamRefused,
  streamReset,
} from '../../src/forward/renewable-dispatcher.js'

/** A dispatcher that records being closed: what the renewal opens and retires. */
class Recorded extends Dispatcher {
  closed = false
  constructor(readonly id: number) {
    super()
  }
  override dispatch(_options: Dispatcher.DispatchOptions, _handler: Dispatcher.DispatchHandler): boolean {
    return true
  }
  override close(): Promise<void> {
    this.closed = true
    return Promise.resolve()
  }
  override destroy(): Promise<void> {
    return Promise.resolve()
  }
}

class Renewing extends RenewableDispatcher<Recorded> {
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.current.dispatch(options, handler)
  }
  get now(): Recorded {
    return this.current
  }
}

function renewing() {
  const opened: Recorded[] = []
  const dispatcher = new Renewing(() => {
    const next = new Recorded(opened.length)
    opened.push(next)
    return next
  })
  return { dispatcher, opened }
}

describe('RenewableDispatcher', () => {
  it('renews once for a burst of refusals from the same connections, and closes the old ones', async () => {
    const { dispatcher, opened } = renewing()
    const generation = generationOf(dispatcher)
    for (let i = 0; i < 50; i++) streamRefused(dispatcher, generation)
    expect(opened.map((d) => d.id)).toEqual([0, 1])
    expect(dispatcher.now.id).toBe(1)
    await Promise.resolve()
    expect(opened[0]?.closed).toBe(true)
    // A refusal on the new connections renews again.
    streamRefused(dispatcher, generationOf(dispatcher))
    expect(opened).toHaveLength(3)
  })

  it(`renews after ${RESETS_BEFORE_NEW_CONNECTIONS} resets on the current connections, not on older ones`, () => {
    const { dispatcher, opened } = renewing()
    for (let i = 0; i < RESETS_BEFORE_NEW_CONNECTIONS - 1; i++) streamReset(dispatcher, 0)
    expect(opened).toHaveLength(1)
    streamReset(dispatcher, 0)
    expect(opened).toHaveLength(2)
    // Resets of requests that went to the retired connections count for nothing now.
    for (let i = 0; i < 10; i++) streamReset(dispatcher, 0)
    expect(opened).toHaveLength(2)
  })

  it('leaves any other dispatcher alone', () => {
    const plain = new Recorded(0)
    expect(generationOf(plain)).toBe(0)
    streamReset(plain, 0)
    streamRefused(plain, 0)
    expect(plain.closed).toBe(false)
  })
})
