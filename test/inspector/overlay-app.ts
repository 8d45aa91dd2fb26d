import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { launchChromium } from '../support/browser.ts'
import { startPlainBackend } from './backend.ts'

/** One Chromium, a backend without CORS headers, and a Vite app with the `/api` route to it. */
export interface OverlayApp {
  readonly browser: Browser
  readonly backend: Awaited<ReturnType<typeof startPlainBackend>>
  readonly app: Awaited<ReturnType<typeof startVite>>
}

/**
 * Starts an {@link OverlayApp} before the tests of the calling `describe` and closes it after
 * them; its fields are there once `beforeAll` has run.
 */
export function useOverlayApp(): OverlayApp {
  const setup: Partial<{ -readonly [K in keyof OverlayApp]: OverlayApp[K] }> = {}
  beforeAll(async () => {
    ;[setup.browser, setup.backend] = await Promise.all([launchChromium(), startPlainBackend()])
    setup.app = await startVite({ routes: { '/api': setup.backend.url } })
  }, 60_000)
  afterAll(async () => {
    await setup.app?.close()
    await setup.browser?.close()
    await setup.backend?.close()
  })
  return setup as OverlayApp
}
