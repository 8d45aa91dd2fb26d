import { readFileSync } from 'node:fs'

/**
 * The version of the `cors-dev-proxy` package, read from its package.json (one level above
 * `dist/` and `src/` alike), so `--version` never disagrees with what npm installed.
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
