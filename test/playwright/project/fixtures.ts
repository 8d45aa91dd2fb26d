import { type CorsDevProxyTestFixtures, corsDevProxyFixtures } from '@cors-dev-proxy/playwright'
import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'

/** The routes as a project writes them: the backend's URL, and where its recordings are. */
export const test = base.extend<CorsDevProxyTestFixtures>(
  corsDevProxyFixtures({
    routes: { '/api': { target: process.env.BACKEND_URL ?? 'http://127.0.0.1:2' } },
    recordings: { dir: process.env.RECORDINGS_DIR ?? 'recordings' },
  }),
)
