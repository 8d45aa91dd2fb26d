// Fails the docs build on a page that does not show what its markdown says: a table that came out
// as paragraphs of pipes, a code sample left plain, an anchor written as text. VitePress builds such
// pages without a warning (a blank line between two rows ends a table; a fence in a language Shiki
// does not know falls back to plain text), so this reads the built HTML beside the markdown it
// came from.
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeEntities, htmlFiles } from './built-html.mjs'

/**
 * Fence languages that are plain text on purpose (log lines, terminal output, trees): Shiki's
 * own names for no highlighting. Any other block must come out with coloured tokens, and a
 * fence without a language must say `text` to be plain.
 */
export const PLAIN_LANGUAGES = Object.freeze(['text', 'txt', 'plain', 'plaintext'])

// Any indentation: fences sit in list items too.
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/
// A delimiter row: cells of dashes with optional colons, at least one pipe (`|---|`, `| :-- | --- |`).
const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/
const RAW_ANCHOR = /\{#[\w-][\w.:-]*\}/
// Text inside these elements is shown (or run) as written, so markup in it is not a rendering bug.
const LITERAL_ELEMENTS = new Set(['pre', 'code', 'script', 'style', 'textarea'])

/**
 * Letters and digits of a header cell, lowercased: what a markdown cell and its `<th>` share once
 * links, code spans, emphasis, escapes and tags are gone.
 * @param {string} text
 */
function cellKey(text) {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase()
}

/**
 * Cells of a table row, split on pipes that are not escaped (`\|` stays in its cell, as GFM says).
 * @param {string} row
 */
function splitRow(row) {
  const cells = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
  return cells.map((cell) => cell.trim())
}

/** @param {string} line */
function isDelimiterRow(line) {
  const trimmed = line.trim()
  return trimmed.includes('|') && DELIMITER_ROW.test(trimmed)
}

/**
 * @typedef {object} SourceTable A table as the markdown writes it.
 * @property {number} line the header row's line
 * @property {number} columns the delimiter row's cell count
 * @property {string} key the first header cell's letters and digits
 * @property {{ line: number, cells: number }[]} overfull body rows with more cells than that
 */

/**
 * What a markdown page declares, outside front matter: its tables (a `| a | b |` row followed by
 * a delimiter row, outside code fences) and its code blocks (fences and `<<<` snippet imports,
 * with the line each starts on). Lines are 1-based.
 * @param {string} markdown
 * @returns {{ tables: SourceTable[], codeBlocks: { line: number }[] }}
 */
export function readSource(markdown) {
  const lines = markdown.split(/\r?\n/)
  const tables = []
  const codeBlocks = []
  let fence = ''
  let start = 0
  if (lines[0] === '---') start = lines.indexOf('---', 1) + 1
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const opening = FENCE.exec(line)
    if (fence) {
      if (opening?.[1]?.startsWith(fence) && opening[2]?.trim() === '') fence = ''
      continue
    }
    // A backtick fence's info string has no backtick (```` ```a` ```` is inline code).
    if (opening && !(opening[1]?.startsWith('`') && opening[2]?.includes('`'))) {
      fence = opening[1] ?? ''
      codeBlocks.push({ line: i + 1 })
      continue
    }
    if (/^\s*<<<\s/.test(line)) codeBlocks.push({ line: i + 1 })
    const next = lines[i + 1]
    if (line.includes('|') && next !== undefined && isDelimiterRow(next)) {
      const table = { line: i + 1, columns: splitRow(next).length, key: cellKey(splitRow(line)[0] ?? '') }
      const overfull = []
      // Body rows run to the first line without a pipe; cells past the header's count are dropped.
      let row = i + 2
      for (; row < lines.length && lines[row]?.includes('|'); row++) {
        const cells = splitRow(lines[row] ?? '').length
        if (cells > table.columns) overfull.push({ line: row + 1, cells })
      }
      tables.push({ ...table, overfull })
      i = row - 1
    }
  }
  return { tables, codeBlocks }
}

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

/**
 * The problems of a page's tables: each table of the markdown must be a `<table>` of as many
 * columns, in the same order (HTML tables the markdown did not write as rows are left alone).
 * @param {SourceTable[]} declared
 * @param {{ columns: number, key: string }[]} built
 */
function tableProblems(declared, built) {
  const problems = []
  let next = 0
  for (const table of declared) {
    const at = built.findIndex((t, i) => i >= next && t.key === table.key)
    const found = built[at]
    if (!found) {
      problems.push(`the table at line ${table.line} is not a <table> (a blank line or a stray pipe in it?)`)
      continue
    }
    if (found.columns !== table.columns) {
      problems.push(`the table at line ${table.line} has ${found.columns} columns, not ${table.columns}`)
    }
    for (const row of table.overfull) {
      problems.push(
        `the row at line ${row.line} has ${row.cells} cells for ${table.columns} columns: the last are not shown (write a pipe in a cell as \\|)`,
      )
    }
    next = at + 1
  }
  return problems
}

/**
 * The problems of a page's code blocks: each must be a fenced block that Shiki coloured, or one
 * whose fence says it is plain (`PLAIN_LANGUAGES`). `lines` are the markdown lines the blocks
 * start on, when the markdown has as many blocks as the page.
 * @param {ReturnType<typeof readBuiltPage>['codeBlocks']} blocks
 * @param {number[] | undefined} lines
 */
function codeProblems(blocks, lines) {
  return blocks.flatMap((block, i) => {
    const line = lines?.[i]
    const where = `the code block ${line ? `at line ${line} ` : ''}("${block.firstLine.slice(0, 50)}")`
    if (block.language === undefined || !block.shiki) return [`${where} is not a fenced code block: fence it`]
    if (block.language === '')
      return [`${where} has no language: give its fence one (\`text\` for plain output)`]
    if (!PLAIN_LANGUAGES.includes(block.language) && !block.highlighted) {
      return [`${where} is not highlighted: Shiki does not know \`${block.language}\``]
    }
    return []
  })
}

/**
 * The rendering problems of one page: `html` as built, `markdown` its source (undefined for a
 * page without one, such as 404.html). Each problem is a sentence naming what to fix.
 * @param {string} html
 * @param {string | undefined} markdown
 * @returns {string[]}
 */
export function findPageProblems(html, markdown) {
  const page = readBuiltPage(html)
  const source = markdown === undefined ? undefined : readSource(markdown)
  const problems = source ? tableProblems(source.tables, page.tables) : []
  let lines
  if (source && source.codeBlocks.length === page.codeBlocks.length) {
    lines = source.codeBlocks.map((block) => block.line)
  } else if (source) {
    problems.push(
      `the markdown has ${source.codeBlocks.length} code blocks, the page shows ${page.codeBlocks.length} (a fence not closed, or not at the start of its line?)`,
    )
  }
  problems.push(...codeProblems(page.codeBlocks, lines))
  for (const text of page.texts) {
    for (const line of text.split('\n')) {
      if (isDelimiterRow(line)) problems.push(`a raw table row shows as text: "${line.trim()}"`)
    }
    const anchor = RAW_ANCHOR.exec(text)
    if (anchor) problems.push(`an anchor shows as text: "${anchor[0]}" (only a heading takes {#id})`)
  }
  return problems
}

/**
 * The rendering problems of a built site: `{ page, problem }` for each.
 * @param {Map<string, { html: string, markdown: string | undefined }>} pages page path → built
 * HTML and its markdown source
 */
export function findRenderingProblems(pages) {
  const found = []
  for (const [page, { html, markdown }] of pages) {
    for (const problem of findPageProblems(html, markdown)) found.push({ page, problem })
  }
  return found
}

/**
 * Every built page of `dist` with its markdown source from `source` (`guide/vite.html` from
 * `guide/vite.md`), keyed by the path of the markdown (or of the HTML, for a page without one)
 * relative to the working directory, as a problem names it.
 * @param {string} dist
 * @param {string} source
 */
export function readBuiltSite(dist, source) {
  const pages = new Map()
  for (const file of htmlFiles(dist)) {
    const markdownFile = join(source, file.replace(/\.html$/, '.md'))
    const markdown = existsSync(markdownFile) ? readFileSync(markdownFile, 'utf8') : undefined
    const html = readFileSync(join(dist, file), 'utf8')
    pages.set(relative(process.cwd(), markdown === undefined ? join(dist, file) : markdownFile), {
      html,
      markdown,
    })
  }
  return pages
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = fileURLToPath(new URL('..', import.meta.url))
  const pages = readBuiltSite(join(source, '.vitepress/dist'), source)
  const problems = findRenderingProblems(pages)
  for (const { page, problem } of problems) console.error(`${page}: ${problem}`)
  if (problems.length > 0) {
    console.error(`[docs] ${problems.length} rendering problem(s) in ${pages.size} pages`)
    process.exit(1)
  }
  console.log(`[docs] ${pages.size} pages, every table is a table and every code sample is highlighted`)
}
