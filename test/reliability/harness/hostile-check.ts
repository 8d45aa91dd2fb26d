import { expect } from 'vitest'
import { isUnderARoute } from './hostile-routes.js'
import type { RecordingTarget } from './recording-target.js'

/** What the target and the canary had received before a case: compare after it with {@link reached}. */
export interface Reach {
  readonly requests: number
  readonly upgrades: number
  readonly canary: number
}

/** A snapshot of what the target and the canary received so far. */
export function reachSnapshot(target: RecordingTarget, canary: RecordingTarget): Reach {
  return {
    requests: target.requests.length,
    upgrades: target.upgrades.length,
    canary: canary.requests.length + canary.upgrades.length,
  }
}

/**
 * What reached the target since `before` (`METHOD url` per request, upgrade URLs), after
 * asserting the two rules every case shares: the canary, which no route points at, received
 * nothing, and every path the target received lies under one of the routes' base paths.
 */
export function reached(
  target: RecordingTarget,
  canary: RecordingTarget,
  before: Reach,
): { requests: string[]; upgrades: string[] } {
  expect(canary.requests.length + canary.upgrades.length, 'the canary received a request').toBe(before.canary)
  const requests = target.requests.slice(before.requests).map((seen) => `${seen.method} ${seen.url}`)
  const upgrades = target.upgrades.slice(before.upgrades)
  for (const seen of [...target.requests.slice(before.requests).map((r) => r.url), ...upgrades]) {
    expect(isUnderARoute(seen), `${seen} is outside the routes' base paths`).toBe(true)
  }
  return { requests, upgrades }
}
