import { ALLOW_ORIGIN_CASES } from './cases/allow-origin.js'
import { BASIC_CASES } from './cases/basics.js'
import type { BrowserCorsCase } from './cases/case-types.js'
import { CREDENTIALS_CASES } from './cases/credentials.js'
import { EXPOSED_HEADER_CASES } from './cases/exposed-headers.js'
import { METHOD_CASES } from './cases/methods.js'
import { PREFLIGHT_ANSWER_CASES } from './cases/preflight-answers.js'
import { SAFELISTED_HEADER_CASES } from './cases/safelisted-headers.js'

export type { BrowserCorsCase, BrowserOutcome, CaseCredentials } from './cases/case-types.js'
export { ECHO_READABLE } from './cases/case-types.js'

/**
 * The single-call matrix headless Chromium runs in test/browser/cors-verdicts.test.ts, which checks
 * that Chromium behaves and prints exactly as `expected` says, and, separately, that `evaluateCors`
 * predicts it; test/browser/check-agrees-with-chromium.test.ts sends the same cases with `checkCors`
 * and `cors-dev-proxy check` and requires the same verdict in the same words. One table, so they
 * cannot drift apart; each group lives in its own file under cases/, written for fetch, with the
 * XMLHttpRequest twin derived by Chromium's wording rules.
 */
export const BROWSER_CORS_CASES: readonly BrowserCorsCase[] = [
  ...BASIC_CASES,
  ...SAFELISTED_HEADER_CASES,
  ...METHOD_CASES,
  ...ALLOW_ORIGIN_CASES,
  ...CREDENTIALS_CASES,
  ...PREFLIGHT_ANSWER_CASES,
  ...EXPOSED_HEADER_CASES,
]
