import { describe, expect, it } from 'vitest'
import { createRateLimit, foldedNote, LOG_INTERVAL_MS } from '../../src/log/rate-limit.js'

function limited() {
  let time = 1_000_000
  const limit = createRateLimit({ now: () => time })
  return {
    limit,
    advance(ms: number) {
      time += ms
    },
  }
}

describe('createRateLimit', () => {
  it('lets the first line of a key through, counts the rest of the window, and reports them with the next line', () => {
    const { limit, advance } = limited()
    const labels: string[] = []
    const take = (n: number) => limit.take('cors /api', () => `line ${n}`)
    expect(take(0)).toEqual({ label: 'line 0', count: 0, seconds: 0 })
    for (let i = 1; i < 300; i++) expect(take(i)).toBeUndefined()
    advance(LOG_INTERVAL_MS - 1)
    expect(take(300)).toBeUndefined()
    advance(1)
    const folded = limit.take('cors /api', () => {
      labels.push('called')
      return 'line 301'
    })
    expect(folded).toEqual({ label: 'line 0', count: 300, seconds: 10 })
    expect(labels).toEqual(['called'])
    expect(foldedNote(folded!)).toBe(' (… and 300 more like it in the last 10 s)')
  })

  it('only builds the label of a line that prints', () => {
    const { limit } = limited()
    let built = 0
    for (let i = 0; i < 50; i++) limit.take('k', () => `line ${++built}`)
    expect(built).toBe(1)
  })

  it('keeps keys apart', () => {
    const { limit } = limited()
    expect(limit.take('a', () => 'a')).toBeDefined()
    expect(limit.take('b', () => 'b')).toBeDefined()
    expect(limit.take('a', () => 'a')).toBeUndefined()
  })

  it('drains what is still held back, with the last printed label, and forgets the keys', () => {
    const { limit, advance } = limited()
    limit.take('a', () => 'first a')
    limit.take('a', () => 'second a')
    limit.take('b', () => 'only b')
    advance(3_000)
    expect(limit.drain()).toEqual([{ label: 'first a', count: 1, seconds: 3 }])
    expect(limit.drain()).toEqual([])
    expect(limit.take('a', () => 'again')).toEqual({ label: 'again', count: 0, seconds: 0 })
  })

  it('prints no note when nothing was held back', () => {
    expect(foldedNote({ label: 'x', count: 0, seconds: 12 })).toBe('')
    expect(foldedNote({ label: 'x', count: 1, seconds: 1 })).toBe(' (… and 1 more like it in the last 1 s)')
  })
})
