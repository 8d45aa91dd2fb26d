import { describe, expect, it } from 'vitest'
import { BROWSER_CORS_CASES } from './cors-cases.js'

/** The matrix's own shape: big enough, every name once, every group in both initiators. */
describe('the browser matrix table', () => {
  it('holds at least 250 single-call cases', () => {
    const groups = new Map<string, number>()
    for (const testCase of BROWSER_CORS_CASES)
      groups.set(testCase.group, (groups.get(testCase.group) ?? 0) + 1)
    console.log(`${BROWSER_CORS_CASES.length} cases:`, Object.fromEntries(groups))
    expect(BROWSER_CORS_CASES.length).toBeGreaterThanOrEqual(250)
  })

  it('names every case once, so a failure points at one', () => {
    const names = BROWSER_CORS_CASES.map((testCase) => testCase.name)
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
  })

  it('has an XMLHttpRequest twin for every fetch case but the fetch-only ones', () => {
    const fetchCases = BROWSER_CORS_CASES.filter((testCase) => testCase.initiator === 'fetch')
    const xhrNames = new Set(
      BROWSER_CORS_CASES.filter((testCase) => testCase.initiator === 'XMLHttpRequest').map((c) => c.name),
    )
    const withoutTwin = fetchCases.filter((testCase) => !xhrNames.has(`XMLHttpRequest: ${testCase.name}`))
    // Only credentials 'omit' has no XMLHttpRequest form.
    expect(withoutTwin.every((testCase) => testCase.credentials === 'omit')).toBe(true)
  })
})
