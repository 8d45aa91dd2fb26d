import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium-launch.mjs'

/*
 * The Playwright project test/playwright/playwright-fixtures.test.ts runs with the real runner:
 * Debian's Chromium (Playwright's own download is not on this machine), one worker, and every
 * file the runner writes in the folder the test gives it. RECORDINGS_DIR and BACKEND_URL come
 * from the test: recordings it made, and a backend it stopped.
 */
export default defineConfig({
  testDir: '.',
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  workers: 1,
  timeout: 60_000,
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
})
