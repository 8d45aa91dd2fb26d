import { describe, expect, it } from 'vitest'
import { createExchangeRing, type ExchangeRecord } from '../../src/inspector/exchange-ring.js'

function record(id: number): ExchangeRecord {
  return { id } as ExchangeRecord
}

describe('createExchangeRing', () => {
  it('keeps at most its capacity, oldest dropped first, in order', () => {
    const ring = createExchangeRing(3)
    for (let id = 1; id <= 10_000; id++) ring.push(record(id))
    expect(ring.list().map((item) => item.id)).toEqual([9998, 9999, 10_000])
    expect(ring.get(9999)?.id).toBe(9999)
    expect(ring.get(1)).toBeUndefined()
  })

  it('tells its listeners, counts them, and survives one that throws', () => {
    const ring = createExchangeRing(2)
    const seen: number[] = []
    const stopThrowing = ring.subscribe(() => {
      throw new Error('closed stream')
    })
    const stop = ring.subscribe((item) => seen.push(item.id))
    expect(ring.listeners).toBe(2)
    ring.push(record(1))
    stop()
    stopThrowing()
    ring.push(record(2))
    expect(seen).toEqual([1])
    expect(ring.listeners).toBe(0)
  })

  it('tells its listeners again of an updated exchange it still holds, not of one it dropped', () => {
    const ring = createExchangeRing(2)
    const seen: number[] = []
    ring.subscribe((item) => seen.push(item.id))
    const first = record(1)
    ring.push(first)
    ring.update(first)
    ring.push(record(2))
    ring.push(record(3))
    ring.update(first)
    // A record with the id of one held, but not that record, is not told either.
    ring.update(record(3))
    expect(seen).toEqual([1, 1, 2, 3])
  })
})
