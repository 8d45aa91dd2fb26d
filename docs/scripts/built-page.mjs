// A built page as a reader sees it: its tables, its code blocks and its text outside code.
import { decodeEntities } from './built-html.mjs'
import { cellKey } from './markdown-source.mjs'

// Text inside these elements is shown (or run) as written, so markup in it is not a rendering bug.
const LITERAL_ELEMENTS = new Set(['pre', 'code', 'script', 'style', 'textarea'])

/**
 * What a built page shows: its tables (columns of the first row, first header cell), its code
 * blocks (fence language, whether Shiki coloured any token) and the text a reader sees outside
 * code.
 * @param {string} html
 */
export function readBuiltPage(html) {
  const body = html.replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/<style\b[\s\S]*?<\/style>/gi, '')
  const tables = [...body.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/gi)].map((match) => {
    const firstRow = /<tr\b[^>]*>([\s\S]*?)<\/tr>/i.exec(match[1] ?? '')?.[1] ?? ''
    const cells = [...firstRow.matchAll(/<t([hd])\b[^>]*>([\s\S]*?)<\/t\1>/gi)]
    return {
      columns: cells.length,
      key: cellKey(decodeEntities((cells[0]?.[2] ?? '').replace(/<[^>]*>/g, ''))),
    }
  })
  const codeBlocks = [
    ...body.matchAll(
      /(?:<div class="language-([^\s"]*)[^"]*">(?:<button\b[^>]*><\/button>)?<span class="lang">[^<]*<\/span>)?<pre\b([^>]*)>([\s\S]*?)<\/pre>/gi,
    ),
  ].map((match) => ({
    // `undefined` for a `<pre>` that did not come from a fence (an indented block, raw HTML).
    language: match[1],
    shiki: /\bclass="[^"]*\bshiki\b/.test(match[2] ?? ''),
    highlighted: /<span\b[^>]*\bstyle="[^"]*(?:--shiki-|color:)/.test(match[3] ?? ''),
    firstLine: decodeEntities((match[3] ?? '').replace(/<[^>]*>/g, '').split('\n')[0] ?? '').trim(),
  }))
  return { tables, codeBlocks, texts: visibleTexts(body) }
}

/**
 * The text nodes of an HTML page outside `pre`, `code`, `script`, `style` and `textarea`, decoded.
 * @param {string} html
 */
function visibleTexts(html) {
  const texts = []
  /** @type {string[]} */
  const literal = []
  for (const match of html.matchAll(/<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)\b[^>]*?(\/?)>|([^<]+)/g)) {
    const [, closing, tag, selfClosing, text] = match
    if (text !== undefined) {
      if (literal.length === 0) texts.push(decodeEntities(text))
      continue
    }
    const name = tag?.toLowerCase()
    if (!name || !LITERAL_ELEMENTS.has(name) || selfClosing) continue
    if (closing) {
      const at = literal.lastIndexOf(name)
      if (at >= 0) literal.length = at
    } else literal.push(name)
  }
  return texts
}
