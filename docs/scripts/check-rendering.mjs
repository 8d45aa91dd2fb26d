// Fails the docs build on a page that does not show what its markdown says: a table that came out
// as paragraphs of pipes, a code sample left plain, an anchor written as text. VitePress builds such
// pages without a warning (a blank line between two rows ends a table; a fence in a language Shiki
// does not know falls back to plain text), so this reads the built HTML beside the markdown it
// came from.
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { htmlFiles } from './built-html.mjs'
import { readBuiltPage } from './built-page.mjs'
import { isDelimiterRow, readSource } from './markdown-source.mjs'

/**
 * Fence languages that are plain text on purpose (log lines, terminal output, trees): Shiki's
 * own names for no highlighting. Any other block must come out with coloured tokens, and a
 * fence without a language must say `text` to be plain.
 */
export const PLAIN_LANGUAGES = Object.freeze(['text', 'txt', 'plain', 'plaintext'])

// `{#id}`: VitePress reads it at the end of a heading (and of a paragraph or list item), else shows it.
const RAW_ANCHOR = /\{#[\w-][\w.:-]*\}/

/**
 * The problems of a page's tables: each table of the markdown must be a `<table>` of as many
 * columns, in the same order (HTML tables the markdown did not write as rows are left alone).
 * @param {import('./markdown-source.mjs').SourceTable[]} declared
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
