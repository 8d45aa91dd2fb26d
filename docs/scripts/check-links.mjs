// Fails the docs build on a dead internal link: a page that does not exist, or an anchor that no
// element of the target page carries. VitePress checks links to pages in markdown (not in the
// sidebar or the nav) and never checks anchors, so this reads the built HTML, where both are.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeEntities, htmlFiles } from './built-html.mjs'

/**
 * The page key of a built file or a link path: `/guide/vite` for `guide/vite.html` and
 * `/guide/vite.html`, `/frameworks/` for `frameworks/index.html`.
 * @param {string} path
 */
export function pageKey(path) {
  const clean = path.replace(/\.html$/, '').replace(/\/index$/, '/')
  return clean === '' ? '/' : clean
}

/**
 * The dead links of a built site: `{ page, href, reason }` for each internal link whose page or
 * anchor is missing.
 * @param {Map<string, string>} pages page key → HTML
 * @param {string} base the site's base path (`/`)
 */
export function findDeadLinks(pages, base = '/') {
  /** @type {Map<string, Set<string>>} */
  const ids = new Map()
  for (const [key, html] of pages) {
    const found = new Set()
    for (const match of html.matchAll(/\sid="([^"]+)"/g)) found.add(decodeEntities(match[1] ?? ''))
    ids.set(key, found)
  }
  const dead = []
  for (const [key, html] of pages) {
    for (const match of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
      const href = decodeEntities(match[1] ?? '')
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue
      const url = new URL(href, `http://docs.invalid${key}`)
      if (!url.pathname.startsWith(base)) continue
      const path = `/${url.pathname.slice(base.length)}`
      // Files (images, the search index...) are not pages: only links without an extension are.
      if (/\.(?!html$)[a-z0-9]+$/i.test(path)) continue
      const target = pageKey(path)
      const anchors = ids.get(target)
      if (!anchors) {
        dead.push({ page: key, href, reason: `no page ${target}` })
        continue
      }
      const anchor = decodeURIComponent(url.hash.slice(1))
      if (anchor && !anchors.has(anchor)) dead.push({ page: key, href, reason: `no #${anchor} on ${target}` })
    }
  }
  return dead
}

/** @param {string} folder */
function readSite(folder) {
  const pages = new Map()
  for (const file of htmlFiles(folder)) {
    if (file !== '404.html') pages.set(pageKey(`/${file}`), readFileSync(join(folder, file), 'utf8'))
  }
  return pages
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = fileURLToPath(new URL('../.vitepress/dist', import.meta.url))
  const pages = readSite(folder)
  const dead = findDeadLinks(pages)
  for (const link of dead) console.error(`dead link on ${link.page}: ${link.href} (${link.reason})`)
  if (dead.length > 0) {
    console.error(`[docs] ${dead.length} dead link(s) in ${pages.size} pages`)
    process.exit(1)
  }
  console.log(`[docs] ${pages.size} pages, every internal link and anchor resolves`)
}
