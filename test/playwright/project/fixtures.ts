import { type CorsDevProxyTestFixtures, corsDevProxyFixtures } from '@cors-dev-proxy/playwright'
import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'

/** The routes as a project writes them: the backend's URL, a mock, and where the recordings are. */
export const test = base.extend<CorsDevProxyTestFixtures>(
  corsDevProxyFixtures({
    routes: {
      '/api': {
        target: process.env.BACKEND_URL ?? 'http://127.0.0.1:2',
        // A mock beside the recordings, answered first, as under the dev server.
        mocks: { 'GET /status': { json: { status: 'mocked' } } },
      },
    },
    recordings: { dir: process.env.RECORDINGS_DIR ?? 'recordings' },
  }),
)
