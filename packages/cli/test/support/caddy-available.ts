import { programRequirement } from '../../../../test/support/requirement.js'
import { findProgram } from '../../src/serve/find-program.js'

/** Caddy's path, or `undefined`. */
export const CADDY = findProgram('caddy')

/** What the HTTP/3 tests need: Caddy (skipped without it on a developer's machine, failed under CI). */
export const CADDY_REQUIREMENT = programRequirement('caddy', CADDY, 'caddy')
