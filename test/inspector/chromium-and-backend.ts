import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchChromium } from '../support/browser.ts'

/** What `useChromiumAnd` gives a describe block, filled in by its `beforeAll`. */
export interface ChromiumAnd<B> {
  readonly browser: Browser
  readonly backend: B
}

/**
 * One Chromium and one backend for the describe block it is called in: started together before its
 * tests, closed after them (the set-up the inspector's browser tests share).
 * @example
 * const env = useChromiumAnd(startPlainBackend)
 * test('…', async () => { await openConsolePage(env.browser, env.backend.url) })
 */
export function useChromiumAnd<B extends { close(): Promise<void> }>(
  start: () => Promise<B>,
): ChromiumAnd<B> {
  const held: { browser?: Browser; backend?: B } = {}
  beforeAll(async () => {
    ;[held.browser, held.backend] = await Promise.all([launchChromium(), start()])
  }, 60_000)
  afterAll(async () => {
    await held.browser?.close()
    await held.backend?.close()
  })
  return {
    get browser() {
      if (held.browser === undefined)
        throw new Error('Chromium is not started yet: use env.browser inside a test')
      return held.browser
    },
    get backend() {
      if (held.backend === undefined)
        throw new Error('the backend is not started yet: use env.backend inside a test')
      return held.backend
    },
  }
}
