/**
 * Caddyfile syntax, for the export. A double-quoted token keeps backslashes as written except
 * before `"`; a backtick-quoted one keeps everything. Values that Caddy passes through its
 * placeholder replacer (header values, replacements) read `{name}` as a placeholder, so literal
 * braces are escaped there.
 */

/**
 * Quotes text as one Caddyfile token, exactly as written (patterns, placeholders meant as such):
 * in double quotes, or in backticks when the text has a `"` or ends with `\`.
 *
 * @example
 * caddyQuote('^/api(/|$)') // '"^/api(/|$)"'
 */
export function caddyQuote(text: string): string {
  if (!text.includes('"') && !text.endsWith('\\')) return `"${text}"`
  if (!text.includes('`')) return `\`${text}\``
  return `"${text.replace(/"/g, '\\"')}"`
}

/**
 * Text that must reach its destination as written through Caddy's placeholder replacer: `{` and
 * `}` escaped, so `{x}` is not read as a placeholder.
 *
 * @example
 * caddyLiteralText('a{b}') // 'a\\{b\\}'
 */
export function caddyLiteralText(text: string): string {
  return text.replace(/[{}]/g, '\\$&')
}

/** {@link caddyLiteralText}, quoted as one token. */
export function caddyLiteral(text: string): string {
  return caddyQuote(caddyLiteralText(text))
}

/**
 * Text for the replacement of a regular-expression header rewrite, where Go reads `$1` as a
 * group: a literal `$` is doubled, and braces escaped as in {@link caddyLiteralText}.
 *
 * @example
 * caddyReplacementText('/a$b') // '/a$$b'
 */
export function caddyReplacementText(text: string): string {
  return caddyLiteralText(text).replace(/\$/g, '$$$$')
}

/** `# text` lines at `indent`. */
export function caddyComment(indent: string, lines: readonly string[]): string[] {
  return lines.map((line) => `${indent}# ${line}`)
}

/** Indents every line of a block by one tab, as Caddy's own formatter (`caddy fmt`) does. */
export function indentCaddy(lines: readonly string[]): string[] {
  return lines.map((line) => (line === '' ? '' : `\t${line}`))
}
