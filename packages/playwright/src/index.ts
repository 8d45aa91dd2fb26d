// The public API of @cors-dev-proxy/playwright: Playwright fixtures answering a test's calls from
// the cors-dev-proxy recordings and mocks (docs/guide/playwright.md). Its files open with their details;
// cors-dev-proxy-fixtures.ts is the main one.

export type {
  CorsDevProxyFixtures,
  CorsDevProxyTestFixtures,
} from './cors-dev-proxy-fixtures.js'
export { corsDevProxyFixtures } from './cors-dev-proxy-fixtures.js'
export type { CorsDevProxyFixturesOptions, CorsDevProxyTestOptions } from './fixture-options.js'
export type { ReplayMode } from './replay-config.js'
export type { CorsDevProxyReplay, ReplayedCall } from './replay-session.js'
export type { UnmatchedCall } from './unmatched-calls.js'
export { UNMATCHED_HEADER } from './unmatched-calls.js'
