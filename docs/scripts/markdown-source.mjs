// A docs page's markdown as VitePress's markdown-it will read it: its tables and its code blocks.

// Any indentation: fences sit in list items too.
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/
// A delimiter row: cells of dashes with optional colons, at least one pipe (`|---|`, `| :-- | --- |`).
const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/

/**
 * Letters and digits of a header cell, lowercased: what a markdown cell and its `<th>` share once
 * links, code spans, emphasis, escapes and tags are gone.
 * @param {string} text
 */
export function cellKey(text) {
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

/**
 * Whether a line is a table's delimiter row (`|---|`, `| :-- | --- |`).
 * @param {string} line
 */
export function isDelimiterRow(line) {
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
