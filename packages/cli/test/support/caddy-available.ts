import { findProgram } from '../../src/serve/find-program.js'

/** Caddy's path, or `undefined`; the reason printed by the tests that need it and skip without it. */
export const CADDY = findProgram('caddy')

/** Printed once by each test file that skips for want of Caddy: skipped, never passed. */
export const NO_CADDY =
  'SKIPPED: Caddy is not on PATH, so HTTP/3 cannot be tested here (pnpm test:tools as root, or: sudo apt-get install -y caddy)'
