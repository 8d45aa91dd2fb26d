import { readFileSync, writeFileSync } from 'node:fs'
import { renderOptionsPage } from './render-options.ts'

/** Where the generated page goes (git-ignored: it is rebuilt by every `docs:build` and `docs:dev`). */
export const OPTIONS_PAGE = new URL('../../reference/options.md', import.meta.url)

/** Writes `docs/reference/options.md` from the core's option interfaces, when it changed. */
export function writeOptionsPage(): void {
  const page = renderOptionsPage()
  let current = ''
  try {
    current = readFileSync(OPTIONS_PAGE, 'utf8')
  } catch {}
  if (current !== page) writeFileSync(OPTIONS_PAGE, page)
}
