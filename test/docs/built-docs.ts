import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPTION_SECTIONS } from '../../docs/.vitepress/option-reference/option-sections.ts'

/** The repository's root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** The docs' sources. */
export const DOCS = join(ROOT, 'docs')
/** What `pnpm docs:build` writes. */
export const DIST = join(DOCS, '.vitepress/dist')

/** Every file under `dir` whose name passes `keep`, skipping `node_modules`, `dist` and `cache`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'cache'].includes(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...filesUnder(path, keep))
    else if (keep(entry.name)) found.push(path)
  }
  return found
}

/**
 * Throws, saying to run `pnpm docs:build`, when `docs/.vitepress/dist` is missing or older than
 * what it is built from: the pages, the VitePress config, the options page's generator and the
 * option interfaces it reads. `pnpm test` builds the docs before the unit tests; a test run alone
 * after an edit would otherwise read the site as it was.
 */
export function assertDocsBuilt(): void {
  const index = join(DIST, 'index.html')
  if (!existsSync(index)) throw new Error('docs/.vitepress/dist is missing: run `pnpm docs:build` first')
  const built = Math.min(
    ...filesUnder(DIST, (name) => name.endsWith('.html')).map((file) => statSync(file).mtimeMs),
  )
  const sources = [
    ...filesUnder(DOCS, (name) => /\.(md|mts|ts)$/.test(name)),
    ...OPTION_SECTIONS.map((section) => join(ROOT, section.file)),
  ]
  const newer = sources
    .filter((file) => statSync(file).mtimeMs > built)
    .map((file) => file.slice(ROOT.length))
  if (newer.length > 0) {
    throw new Error(`docs/.vitepress/dist is older than ${newer.join(', ')}: run \`pnpm docs:build\` first`)
  }
}
