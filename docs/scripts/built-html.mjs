// What both checks of the built site need: its HTML files, and HTML text decoded as a browser shows it.
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * The HTML files under `dir`, as paths relative to it with `/` separators (`guide/vite.html`).
 * @param {string} dir
 * @returns {string[]}
 */
export function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort()
}

/**
 * HTML text with the entities VitePress writes decoded (`&amp;`, `&lt;`, `&quot;`, `&#39;`, numeric).
 * @param {string} text
 */
export function decodeEntities(text) {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&#x([\da-f]+);/gi, (_, code) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&amp;/g, '&')
}
