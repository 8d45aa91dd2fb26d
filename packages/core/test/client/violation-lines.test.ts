import { describe, expect, it } from 'vitest'
import { exchangeOfHash, violationsHaystack, violationsMark } from '../../src/client/inspector-violations.js'
import {
  callOfOperation,
  expectedVsActual,
  readViolationEntries,
  type Violation,
  violationKey,
  violationsTitle,
  violationWhere,
} from '../../src/client/violation-lines.js'

/*
 * The words the overlay's OpenAPI cards and the inspector's "OpenAPI" section show for a
 * violation of a route's document, and how the page reads the dev server's list (browser code,
 * pure: run here without a page).
 */

const missing: Violation = {
  in: 'response',
  operation: 'GET /pets/{petId}',
  pointer: '/name',
  message: "must have required property 'name'",
}

describe('violation lines', () => {
  it('keys a violation by route, side, operation, pointer and message, not by the value that came', () => {
    expect(violationKey({ ...missing, route: '/api' })).toBe(
      "openapi /api response GET /pets/{petId} /name must have required property 'name'",
    )
    expect(violationKey({ ...missing, route: '/v2' })).not.toBe(violationKey({ ...missing, route: '/api' }))
    expect(violationKey({ ...missing, actual: '1' })).toBe(violationKey({ ...missing, actual: '2' }))
    expect(violationKey({ ...missing, in: 'request' })).not.toBe(violationKey(missing))
  })

  it.each([
    [missing, 'response of GET /pets/{petId}, at /name'],
    [{ ...missing, pointer: '' }, 'response of GET /pets/{petId}, at (the whole body)'],
    [
      { ...missing, in: 'request' as const, pointer: 'query.limit' },
      'request of GET /pets/{petId}, at query.limit',
    ],
  ])('says where %j is', (violation, words) => {
    expect(violationWhere(violation)).toBe(words)
  })

  it.each([
    [{}, undefined],
    [{ expected: 'integer', actual: '"seven"' }, 'expected integer, got "seven"'],
    [{ expected: '200, 404' }, 'expected 200, 404, got (not shown)'],
    [{ actual: '500' }, 'expected (not said), got 500'],
  ])('puts %j as expected against actual', (values, words) => {
    expect(expectedVsActual({ ...missing, ...values })).toBe(words)
  })

  it.each([
    [1, 'an OpenAPI violation'],
    [3, '3 OpenAPI violations'],
  ])('counts %i in the title', (count, words) => {
    expect(violationsTitle(count)).toBe(words)
  })

  it('reads the list, bare or under `violations`, and drops what has another shape', () => {
    const entry = { ...missing, route: '/api', count: 2, lastExchange: 7, lastAt: '2026-12-02T15:00:00Z' }
    expect(readViolationEntries([entry])).toEqual([entry])
    expect(readViolationEntries({ violations: [entry] })).toEqual([entry])
    // The inspector off: no exchange to link.
    const unlinked = { ...entry, lastExchange: undefined }
    expect(readViolationEntries([unlinked])).toEqual([unlinked])
    expect(
      readViolationEntries([
        { ...entry, in: 'body' },
        { ...entry, count: '2' },
        { ...entry, lastExchange: '7' },
        { ...entry, route: undefined },
        { ...entry, expected: 3 },
        '<img src=x onerror=alert(1)>',
        null,
      ]),
    ).toEqual([])
    expect(readViolationEntries(null)).toEqual([])
    expect(readViolationEntries('nope')).toEqual([])
  })
})

describe("the page's call an operation names", () => {
  const calls = [
    { method: 'GET', url: 'http://localhost:5173/api/v1/pets/1' },
    { method: 'POST', url: 'http://localhost:5173/api/v1/pets' },
    { method: 'GET', url: 'http://localhost:5173/api/v1/pets/2?full=1' },
    { method: 'GET', url: 'http://localhost:5173/api/v1/pets/mine' },
    { method: 'get', url: 'http://localhost:5173/api/v1/owners/ann%20lee/' },
  ]

  it.each([
    ['GET /pets/{petId}', calls[3]],
    ['POST /pets', calls[1]],
    ['GET /pets/mine', calls[3]],
    ['GET /owners/{name}', calls[4]],
    ['GET /pets', undefined],
    ['DELETE /pets/{petId}', undefined],
    ['GET /stores/{id}/pets/{petId}', undefined],
  ])('%s is %j', (operation, call) => {
    expect(callOfOperation(calls, operation)).toEqual(call)
  })

  it('takes the latest fitting call, and none of an empty list', () => {
    expect(callOfOperation(calls.slice(0, 3), 'GET /pets/{petId}')).toEqual(calls[2])
    expect(callOfOperation([], 'GET /pets/{petId}')).toBeUndefined()
  })
})

describe("the inspector's mark and filter text", () => {
  it('marks and filters only an exchange with violations', () => {
    expect(violationsMark(undefined)).toBe('')
    expect(violationsMark([])).toBe('')
    expect(violationsMark([missing])).toBe(' (1 OpenAPI violation)')
    expect(violationsMark([missing, missing])).toBe(' (2 OpenAPI violations)')
    expect(violationsHaystack(undefined)).toBe('')
    expect(violationsHaystack([])).toBe('')
    expect(violationsHaystack([missing, { ...missing, operation: 'POST /pets' }, missing])).toBe(
      ' openapi violation GET /pets/{petId} POST /pets',
    )
  })

  it.each([
    ['#exchange=12', 12],
    ['#exchange=', undefined],
    ['#exchange=1x', undefined],
    ['', undefined],
    ['#other', undefined],
  ])('reads the exchange of the address %j', (hash, id) => {
    expect(exchangeOfHash(hash)).toBe(id)
  })
})
